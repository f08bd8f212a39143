"""The table page's help to a new player, in a real browser: ``baloot serve`` in a subprocess,
Chromium through Playwright, as in ``test_browser.py`` (skipped without Chromium, failed under
``CI=true``).

A card the rules refuse says why when tapped; Undo waits for something to undo; the last
trick shows beside the trick in play; a dropped connection disables the controls under a
visible banner; Sawa is offered when it holds and shows the claimant's hand; a spectator
reads team names; the Arabic page asks its question once."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from helpers import WAIT, free_port
from spec_example import record_text
from test_analysis import THROWN_ACTIONS, THROWN_DECK
from test_browser import (
    ARABIC,
    Pages,
    Served,
    _answers,
    _stop_server,
    artifacts,  # noqa: F401 - a fixture
    browser,  # noqa: F401 - a fixture
    decisions,
    hand_cards,
    no_reject,
    shot,
    wait_for_decision,
)
from test_server_analysis import stored_match

import baloot
from baloot.core.seats import Seat
from baloot.server.room import Room
from baloot.server.storage import open_store
from baloot.table import Player

if TYPE_CHECKING:  # imported by test_browser, which skips the module without Playwright
    from playwright._impl._api_structures import FloatRect
    from playwright.sync_api import Browser, Page

#: A table whose first hand South, bidding Sun when it may and leading its best card, can
#: claim with cards to spare (found by playing the seeds in order).
SAWA_SEED = 72
#: A bot quick enough for a test whose seeded choice of a call differs from the best estimate
#: of the thrown hand.
QUICK_BOT = "expert:samples=4,deals=4"
#: A card of the record's notation ("Kh"), which the page never shows a player.
NOTATION = re.compile(r"\b[AKQJT987][shdc]\b")


@dataclass
class Restartable:
    """``baloot serve`` on a port of its own, which a test stops and starts again."""

    workdir: Path
    port: int
    process: subprocess.Popen[bytes] | None = None
    options: tuple[str, ...] = ()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Served:
        source = str(Path(baloot.__file__).resolve().parents[1])
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [source, env.get("PYTHONPATH")]))
        log = self.workdir / "serve.log"
        command = [sys.executable, "-m", "baloot", "serve", "--port", str(self.port)]
        command += ["--db", str(self.workdir / "tables.db"), "--bot-pause", "0", *self.options]
        with log.open("ab") as out:
            self.process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + WAIT
        while not _answers(self.url):
            assert self.process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        return Served(self.url, self.process, log)

    def stop(self) -> None:
        if self.process is not None:
            _stop_server(self.process)
            self.process = None


@pytest.fixture(scope="module")
def serving(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Restartable, str]]:
    """The server, with the Sawa table kept in its database; and South's link to it."""
    workdir = tmp_path_factory.mktemp("serve-help")
    room = Room.create({Seat.S: Player.human("S")}, seed=SAWA_SEED, room_id="sawa")
    with open_store(str(workdir / "tables.db")) as store:
        store.create(room.config(timer=None, public=False, created=time.time()))
    served = Restartable(workdir, free_port())
    served.start()
    yield served, f"/t/sawa?token={room.tokens[Seat.S]}"
    served.stop()


@pytest.fixture
def pages(browser: Browser, serving: tuple[Restartable, str]) -> Iterator[Pages]:  # noqa: F811
    opened = Pages(browser, serving[0].url)
    yield opened
    opened.close()
    # While the server is stopped on purpose, the browser reports the refused reconnections.
    errors = [error for error in opened.errors if "ERR_CONNECTION_REFUSED" not in error]
    assert errors == [], "the pages reported script errors"


def create(served: Restartable, seats: dict[str, str]) -> dict[str, Any]:
    assert served.process is not None
    return Served(served.url, served.process, served.workdir / "serve.log").create(seats)


def refused_cards(page: Page) -> Any:
    """The seat's cards the rules refuse now, which the page still lets a finger tap."""
    return page.locator("#hand .hand-card.illegal[aria-disabled='true']")


def boxes_overlap(a: FloatRect, b: FloatRect) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def test_a_seat_is_told_why_and_never_clicks_into_silence(
    pages: Pages,
    serving: tuple[Restartable, str],
    artifacts: Path,  # noqa: F811
) -> None:
    served, _ = serving
    created = create(served, {"S": "human"})
    page = pages.open(created["seats"]["S"]["url"])
    wait_for_decision(page)
    undo = page.locator('[data-control="undo"]')
    assert undo.is_disabled(), "Undo offered before South decided anything"
    page.locator("[data-action]").filter(visible=True).first.click()
    page.wait_for_function("() => !document.querySelector('[data-control=undo]').disabled")

    # Until a card is refused and a trick is finished, with a card of the next one down.
    refused_seen, last_seen = "", False
    for _ in range(200):
        wait_for_decision(page)
        no_reject(page)
        refused = refused_cards(page)
        if refused.count() and not refused_seen:
            # A tap on a refused card: the engine's reason, in the page's words. The card is
            # marked aria-disabled (it plays nothing), so the tap is forced past that mark.
            refused.first.click(force=True)
            message = page.locator("#message")
            page.wait_for_function("() => document.querySelector('#message').textContent")
            refused_seen = message.inner_text()
            assert re.match(r"You (must|may not|do not)", refused_seen), refused_seen
            assert not NOTATION.search(refused_seen), refused_seen
            assert refused.first.get_attribute("data-action") is None
            said = message.bounding_box()  # in view, above the hand's dock
            assert said is not None and said["y"] >= 0 and said["y"] + said["height"] <= 860
            shot(page, artifacts, "table-refused-card")
        center = page.locator("#center .card")
        if refused_seen and page.locator('[data-control="last"]').count() and center.count():
            in_play = center.evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
            page.locator('[data-control="last"]').click()
            box = page.locator("#last-trick")
            box.wait_for()
            assert box.locator(".card").count() == 4
            assert center.evaluate_all("els => els.map(e => e.getAttribute('aria-label'))") == (
                in_play
            ), "showing the last trick hid the trick in play"
            caption = page.locator("#last-trick .last-caption").bounding_box()
            assert caption is not None
            cards = [card.bounding_box() for card in page.locator("#felt .card").all()]
            for i, card_box in enumerate(cards):
                assert card_box is not None and not boxes_overlap(caption, card_box)
                # no card of the felt covers another: the two tricks lie apart
                assert not any(boxes_overlap(card_box, other) for other in cards[i + 1 :] if other)
            shot(page, artifacts, "table-last-trick")
            last_seen = True
            break
        page.locator("[data-action]").filter(visible=True).first.click()
    assert refused_seen and last_seen

    # The connection drops (the server stops): the banner shows, nothing can be clicked.
    wait_for_decision(page)
    served.stop()
    status = page.locator("#status")
    status.filter(has_text="Connection lost").wait_for()
    assert status.is_visible()
    offered = page.locator("[data-action]").filter(visible=True)
    assert offered.count() > 0
    assert all(offered.nth(i).is_disabled() for i in range(offered.count()))
    assert page.locator('[data-control="undo"]').is_disabled()
    shot(page, artifacts, "table-connection-lost")
    served.start()
    status.wait_for(state="hidden")
    wait_for_decision(page)
    assert decisions(page), "the decisions come back with the connection"

    # A spectator reads the teams by name, in both languages; the Arabic seat is asked once.
    watcher = pages.open(created["spectate"])
    watcher.locator("#felt").wait_for()
    assert "North-South" in watcher.locator("#score").inner_text()
    assert "Us" not in watcher.locator("#score").inner_text()
    arabic_watcher = pages.open(created["spectate"] + "?lang=ar")
    arabic_watcher.locator("#felt").wait_for()
    score = arabic_watcher.locator("#score").inner_text()
    assert "شمال-جنوب" in score and "لنا" not in score and "NS" not in score
    arabic = pages.open(created["seats"]["S"]["url"] + "&lang=ar")
    wait_for_decision(arabic)
    prompt = arabic.locator("#prompt").inner_text()
    assert ARABIC.search(prompt) and prompt.count("دورك") <= 1, prompt


def test_sawa_is_offered_when_it_holds_and_shows_the_claimants_hand(
    pages: Pages,
    serving: tuple[Restartable, str],
    artifacts: Path,  # noqa: F811
) -> None:
    _, link = serving
    page = pages.open(link)
    claim = page.locator('[data-control="claim"]')
    for _ in range(60):
        try:
            wait_for_decision(page)
        except Exception:
            shot(page, artifacts, "debug-sawa")
            raise
        no_reject(page)
        if claim.count():
            break
        offered = decisions(page)
        sun = [action for action in offered if action.endswith(" sun")]
        # Sun when South may bid it, else the first decision: its best card when it plays.
        page.locator(f'[data-action="{(sun or offered)[0]}"]').filter(visible=True).click()
    else:
        raise AssertionError("Sawa was never offered")
    held = hand_cards(page)
    assert len(held) > 1
    shot(page, artifacts, "table-sawa-offered")
    claim.click()
    revealed = page.locator("#sheet .claimed .card")
    revealed.first.wait_for()
    shown = revealed.evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    assert sorted(shown) == sorted(held), "the claimant's hand, face up, as it was claimed"
    assert "You" in page.locator("#sheet .claimed").inner_text()
    assert "Not sure" not in page.locator("#message").inner_text()
    shot(page, artifacts, "table-sawa-claimed")


def test_the_analysis_says_why_the_bots_call_is_not_the_best_estimate(
    browser: Browser,  # noqa: F811
    tmp_path: Path,
    artifacts: Path,  # noqa: F811
) -> None:
    """The thrown hand judged with a small seeded bot: where the bot's call is not the call of
    best estimate, its cell is marked † and the notes say why (match equity, confidence)."""
    with open_store(str(tmp_path / "tables.db")) as store:
        stored_match(store, "thrown", record_text(THROWN_ACTIONS, deck=THROWN_DECK))
    served = Restartable(tmp_path, free_port(), options=("--analysis-bot", QUICK_BOT))
    served.start()
    opened = Pages(browser, served.url)
    try:
        for lang, why in (("en", "match equity"), ("ar", "بفرصة الفوز بالمباراة")):
            page = opened.open("/t/thrown/hands/1/analysis" + ("?lang=ar" if lang == "ar" else ""))
            page.locator("#decisions tbody tr[data-position]").first.wait_for()
            marked = page.locator("#decisions td.bot .equity-mark")
            assert marked.count() >= 1
            assert why in page.locator("#analysis-notes").inner_text()
            shot(page, artifacts, f"analysis-equity-{lang}")
    finally:
        opened.close()
        served.stop()
    assert opened.errors == []
