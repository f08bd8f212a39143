"""A player's profile and the leaderboard in a real browser (``baloot serve`` and Chromium, as
in ``test_browser.py``; skipped without Chromium, failed under ``CI=true``): the ratings with
their "?", the history drawn as an SVG plot, the statistics, the last matches (a deleted
player named so), the leaderboard's rows and its choices, in English and in Arabic from right
to left, on a phone, with no serious accessibility fault (axe-core).

The database is made before the server starts: accounts' rows inserted directly, matches
played by bots and finished through the store, so that they are rated as a server rates them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from rating_helpers import FOUR, add_player, add_table, played
from test_browser import (
    ARABIC,
    PHONE,
    Pages,
    Served,
    _start_server,
    _stop_server,
    artifacts,  # noqa: F401 - a fixture
    browser,  # noqa: F401 - a fixture
    fits_the_phone,
    shot,
)
from test_browser_feel import no_serious_fault

from baloot.server.storage import open_store

if TYPE_CHECKING:  # imported by test_browser, which skips the module without Playwright
    from playwright.sync_api import Browser


@pytest.fixture(scope="module")
def rated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """A server over a database where four accounts played six rated matches; West's
    account was deleted since."""
    workdir = tmp_path_factory.mktemp("rated")
    with open_store(str(workdir / "tables.db")) as store:
        for player_id in FOUR.values():
            add_player(store, player_id, {"pn": "Nada", "ps": "Saad"}.get(player_id, player_id))
        for n in range(6):
            add_table(store, f"m{n}", FOUR)
            record, winner = played(n)
            store.finish(f"m{n}", record, {"winner": winner, "totals": {"NS": 1, "EW": 2}}, 2e9 + n)
        with store._transaction() as run:
            deleted = "name = '', name_key = 'deleted:pw', deleted = 1"
            run(f"UPDATE players SET {deleted} WHERE id = 'pw'")
    served = _start_server(workdir)
    yield served
    _stop_server(served.process)


@pytest.fixture
def pages(browser: Browser, rated: Served) -> Iterator[Pages]:  # noqa: F811
    opened = Pages(browser, rated.url)
    yield opened
    opened.close()
    assert opened.errors == [], "the pages reported script errors"


def test_a_profile_shows_ratings_a_plotted_history_statistics_and_matches(
    pages: Pages,
    artifacts: Path,  # noqa: F811
) -> None:
    page = pages.open("/players/Saad", PHONE)
    page.locator("#ratings li[data-preset=classic]").wait_for()
    assert page.locator("#player-name").inner_text() == "Saad"
    line = page.locator("#ratings li").inner_text()
    assert line.startswith("classic: ") and "?" in line and line.endswith("rated matches: 6")
    plot = page.locator("#plots svg")
    assert plot.get_attribute("role") == "img"
    assert plot.locator("circle").count() == 6
    assert page.locator("#stats li").count() == 7
    assert page.locator("#matches li").count() == 6
    assert "a deleted player" in page.locator("#matches li").first.inner_text()
    assert page.locator("#matches li a[download]").count() == 6
    fits_the_phone(page)
    no_serious_fault(page, "the profile")
    shot(page, artifacts, "profile-phone")
    # A partner's name leads to their profile.
    page.locator("#matches li").first.locator("a", has_text="Nada").click()
    page.wait_for_url("**/players/Nada")
    page.locator("#ratings li[data-preset=classic]").wait_for()
    assert page.locator("#player-name").inner_text() == "Nada"


def test_the_profile_in_arabic_runs_right_to_left(pages: Pages, artifacts: Path) -> None:  # noqa: F811
    page = pages.open("/players/Nada?lang=ar", PHONE)
    page.locator("#ratings li[data-preset=classic]").wait_for()
    assert page.evaluate("() => document.documentElement.dir") == "rtl"
    assert ARABIC.search(page.locator("#ratings li").inner_text())
    assert "لاعب محذوف" in page.locator("#matches li").first.inner_text()
    # A change's sign stays before its number: the number is isolated left to right.
    change = page.locator(".rating-change").first.text_content() or ""
    assert re.search(r"\u2066[+-]\d", change), change
    fits_the_phone(page)
    no_serious_fault(page, "the profile in Arabic")
    shot(page, artifacts, "profile-phone-ar")


def test_an_unknown_player_is_said_so_on_the_page(pages: Pages) -> None:
    page = pages.open("/players/nobody")
    page.locator("#profile-error").filter(has_text="No player has this name.").wait_for()
    # The page and its API answer 404, which the browser reports: expected here.
    pages.errors[:] = [error for error in pages.errors if "status of 404" not in error]


def test_the_leaderboard_lists_the_players_and_links_their_profiles(
    pages: Pages,
    artifacts: Path,  # noqa: F811
) -> None:
    page = pages.open("/leaderboard", PHONE)
    rows = page.locator("#board-rows tr[data-player]")
    rows.first.wait_for()
    assert sorted(rows.evaluate_all("rows => rows.map(r => r.dataset.player)")) == [
        "Nada",
        "Saad",
        "pe",
    ]
    assert "5 or more rated matches" in page.locator("#board-intro").inner_text()
    fits_the_phone(page)
    no_serious_fault(page, "the leaderboard")
    shot(page, artifacts, "leaderboard-phone")
    page.locator("#board-preset").select_option("federation")
    page.locator("#board-rows td.sub").wait_for()
    page.locator("#board-preset").select_option("classic")
    rows.first.wait_for()
    rows.locator("a", has_text="Saad").click()
    page.wait_for_url("**/players/Saad")
    page.locator("#ratings li[data-preset=classic]").wait_for()


def test_the_leaderboard_in_arabic(pages: Pages) -> None:
    page = pages.open("/leaderboard?lang=ar", PHONE)
    page.locator("#board-rows tr[data-player]").first.wait_for()
    assert page.evaluate("() => document.documentElement.dir") == "rtl"
    assert ARABIC.search(page.locator("h1").inner_text())
    fits_the_phone(page)
    no_serious_fault(page, "the leaderboard in Arabic")
