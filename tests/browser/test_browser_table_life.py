"""The table page through a match's life, in a real browser (``baloot serve`` and Chromium, as
in ``test_browser.py``; skipped without Chromium, failed under ``CI=true``): the turn is told
each time it comes (a sound, a buzz on a phone), a finished match reopened later still leads to
its rematch and says its talk is closed, old talk is no fresh bubble after a reload or a
restart, and while the page's own connection is down nobody's presence is shown as known."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from helpers import free_port
from test_browser import (
    Pages,
    artifacts,  # noqa: F401 - a fixture
    browser,  # noqa: F401 - a fixture
    decisions,
    no_reject,
    shot,
    visible,
    wait_for_decision,
)
from test_browser_table_help import Restartable, create
from test_rematch import NORTH, SOUTH, finished_match

from baloot.server.rematch import rematch_id
from baloot.server.storage import open_store

if TYPE_CHECKING:  # imported by test_browser, which skips the module without Playwright
    from pathlib import Path

    from playwright.sync_api import Browser, Page

#: The finished match kept in the server's database, South's token its seat.
FINISHED = "finished1"
#: Counts the page's "your turn" sounds (its module is the page's own: one instance).
COUNT_TURNS = """async () => {
    const { sounds } = await import("/static/sound.js");
    const play = sounds.yourTurn;
    window.turnsTold = 0;
    sounds.yourTurn = () => { window.turnsTold += 1; play(); };
}"""
#: Counts the phone's buzzes: set before the page's scripts run.
COUNT_BUZZES = """
    window.buzzes = 0;
    Object.defineProperty(Navigator.prototype, "vibrate", {
        configurable: true, value() { window.buzzes += 1; return true; },
    });
"""


@pytest.fixture(scope="module")
def serving(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Restartable]:
    """The server, with a finished match kept in its database (South a person)."""
    workdir = tmp_path_factory.mktemp("serve-life")
    with open_store(str(workdir / "tables.db")) as store:
        finished_match(lambda: store, FINISHED)
    served = Restartable(workdir, free_port())
    served.start()
    yield served
    served.stop()


@pytest.fixture
def pages(browser: Browser, serving: Restartable) -> Iterator[Pages]:  # noqa: F811
    if serving.process is None:  # a test that failed while the server was stopped
        serving.start()
    opened = Pages(browser, serving.url)
    yield opened
    opened.close()
    # While the server is stopped on purpose, the browser reports the refused reconnections.
    errors = [error for error in opened.errors if "ERR_CONNECTION_REFUSED" not in error]
    assert errors == [], "the pages reported script errors"


def counted(page: Page, name: str) -> int:
    return int(page.evaluate(f"() => window.{name}"))


def decide(page: Page) -> None:
    """South's first decision offered (or the next hand), once the page offers one."""
    wait_for_decision(page)
    no_reject(page)
    page.locator(f'[data-action="{decisions(page)[0]}"]').filter(visible=True).click()


def test_the_turn_is_told_by_a_sound_and_a_buzz_each_time_it_comes(
    pages: Pages,
    serving: Restartable,
    artifacts: Path,  # noqa: F811
) -> None:
    created = create(serving, {"S": "human"})
    page = pages.open(created["seats"]["S"]["url"], motion=True)  # paced, as people see it
    page.context.add_init_script(COUNT_BUZZES)
    page.reload()
    wait_for_decision(page)
    page.evaluate(COUNT_TURNS)  # from now on: the turn shown now is not counted
    clicks = 6  # at least one turn in two comes back from another seat: 3 told at the least
    for _ in range(clicks):  # each answered by the bots until the turn comes back
        decide(page)
    wait_for_decision(page)
    told = counted(page, "turnsTold")
    # A decision hands the turn on and it comes back, told once; it does not come anew when the
    # seat decides twice in a row (a project, then its card; a trick it won, then its lead).
    assert 3 <= told <= clicks, f"{told} turns told for {clicks} decisions"
    assert counted(page, "buzzes") == told, "a phone buzzes with each turn told"
    shot(page, artifacts, "table-turn-told")

    # Sound off: no buzz either, and the turn is still drawn.
    page.locator("#sound-switch").click()
    buzzed = counted(page, "buzzes")
    for _ in range(clicks):
        decide(page)
        wait_for_decision(page)
        if counted(page, "turnsTold") > told:
            break
    else:
        raise AssertionError("the turn never came back")
    assert counted(page, "buzzes") == buzzed


def test_a_finished_match_reopened_from_my_tables_offers_its_rematch_and_closes_its_talk(
    pages: Pages,
    artifacts: Path,  # noqa: F811
) -> None:
    seat = pages.open(f"/t/{FINISHED}?token={SOUTH}")  # this browser holds South's seat
    seat.locator("#status .finished-notice").wait_for()
    seat.goto("/")
    row = seat.locator(f'#my-tables li[data-table="{FINISHED}"]')
    row.wait_for()
    assert row.locator(f'[data-rematch="{FINISHED}"]').is_visible()
    shot(seat, artifacts, "lobby-my-finished-table")
    row.get_by_role("link", name="See the result").click()

    # Nobody is at the finished table any more: its page says so, offers the rematch to the
    # seat, and its talk panel says why it cannot be used.
    notice = seat.locator("#status .finished-notice")
    notice.wait_for()
    seat.locator("#talk .talk-closed").filter(has_text="talk is closed").wait_for()
    usable = visible(seat, "#talk button:enabled, #talk input:enabled")
    assert usable.count() == 0, "a closed table's talk offers controls"
    shot(seat, artifacts, "finished-table-reopened")
    notice.locator("#rematch").click()
    again = rematch_id(FINISHED)
    seat.wait_for_url(f"**/t/{again}?token={SOUTH}")
    # North comes too: its entropy given, the first hand is dealt at once, not at the deadline
    # of the deal's wait for an absent person.
    pages.open(f"/t/{again}?token={NORTH}")
    seat.locator("#score .score-hand").filter(has_text="Hand 1").wait_for()

    # The lobby now leads from the finished match to the rematch.
    seat.goto("/")
    join = seat.locator(f'#my-tables li[data-table="{FINISHED}"] a.primary')
    join.wait_for()
    assert join.get_attribute("href") == f"/t/{again}?token={SOUTH}"


def test_old_talk_comes_back_to_the_log_not_as_fresh_bubbles(
    pages: Pages,
    serving: Restartable,
    artifacts: Path,  # noqa: F811
) -> None:
    created = create(serving, {"S": "human", "N": "human"})
    south = pages.open(created["seats"]["S"]["url"])
    north = pages.open(created["seats"]["N"]["url"])
    north.locator('#talk [data-phrase="يا هلا"]').click()
    bubble = south.locator("#seat-top [data-bubble]")
    bubble.get_by_text("يا هلا").wait_for()  # said while South's page was there: a bubble

    said = south.locator('#talk .talk-log li[data-said="N"]')
    south.reload()
    said.first.wait_for()
    assert bubble.count() == 0, "a line said before the reload came back as a fresh bubble"

    serving.stop()
    south.locator("#status").filter(has_text="Connection lost").wait_for()
    serving.start()
    south.locator("#status").wait_for(state="hidden")
    said.first.wait_for()
    assert bubble.count() == 0, "a line said before the restart came back as a fresh bubble"

    # A line said now is fresh news again.
    north.wait_for_timeout(2100)  # one line every 2 s
    north.locator('#talk [data-phrase="ابشر"]').click()
    bubble.get_by_text("ابشر").wait_for()
    assert said.count() == 2
    shot(south, artifacts, "table-talk-after-restart")


def test_while_the_connection_is_down_no_seat_shows_as_connected(
    pages: Pages,
    serving: Restartable,
    artifacts: Path,  # noqa: F811
) -> None:
    created = create(serving, {"S": "human"})
    page = pages.open(created["seats"]["S"]["url"])
    wait_for_decision(page)
    dots = page.locator("#felt .seat .dot")
    assert page.locator("#felt .seat .dot.on").count() == 4
    serving.stop()
    page.locator("#status").filter(has_text="Connection lost").wait_for()
    assert page.locator("#felt .seat .dot.unknown").count() == 4
    assert page.locator("#felt .seat .dot.on, #felt .seat .dot.off").count() == 0
    assert dots.first.get_attribute("title") == "not known while the connection is down"
    shot(page, artifacts, "table-presence-unknown")
    serving.start()
    page.locator("#felt .seat .dot.on").nth(3).wait_for()
    assert page.locator("#felt .seat .dot.unknown").count() == 0
