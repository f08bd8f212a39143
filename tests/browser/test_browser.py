"""The pages in a real browser: ``baloot serve`` in a subprocess, Chromium through Playwright.

The tests act as people do, by clicking what the page shows. They rely on the page's testing
contract (``docs/table-protocol.md``): every visible, enabled element that sends a decision carries
``data-action`` with the action in record notation, the next-hand button ``data-action="next"``.

The browser is ``$BALOOT_CHROMIUM`` or ``/usr/bin/chromium``; without one the module is
skipped, except under ``CI=true``, where a missing browser fails. Screenshots go to
``$BALOOT_ARTIFACTS`` (default: a temporary directory of the run).
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from helpers import CRASHING_BOT, WAIT, free_port

import baloot
from baloot.core.seats import Seat
from baloot.records.record import loads
from baloot.records.replay import replay
from baloot.server.journal import Step, StepKind
from baloot.server.room import Room
from baloot.server.storage import open_store
from baloot.table import Player

IN_CI = os.environ.get("CI", "").lower() == "true"


def _missing(reason: str) -> None:
    """Skip the module for ``reason``, or fail it in CI, where the browser must be there."""
    if IN_CI:
        pytest.fail(f"CI=true and {reason}", pytrace=False)
    pytest.skip(reason, allow_module_level=True)


try:
    from playwright.sync_api import (
        Browser,
        BrowserContext,
        Locator,
        Page,
        expect,
        sync_playwright,
    )
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
except ImportError:  # pragma: no cover - depends on the environment
    _missing("the playwright package is not installed")


def chromium_path() -> str | None:
    """The browser to drive: ``$BALOOT_CHROMIUM`` (a path or a command), else /usr/bin/chromium."""
    named = os.environ.get("BALOOT_CHROMIUM")
    if named:
        return shutil.which(named) or (named if Path(named).is_file() else None)
    default = Path("/usr/bin/chromium")
    return str(default) if default.is_file() else None


CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 375, "height": 667}
#: How long (ms) a page may take to show what a test waits for (and an ``expect`` to come true).
WAIT_MS = WAIT * 1000
expect.set_options(timeout=WAIT_MS)
ARABIC = re.compile(r"[\u0600-\u06ff]")
#: The start of a reject line, in English (``rejected`` in i18n.js).
REJECTED = "Not allowed"


# --------------------------------------------------------------------------- the server


@dataclass
class Served:
    """A running ``baloot serve``: its base URL and process."""

    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def api(self, path: str, body: dict[str, Any] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.url + path, data=data, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=WAIT) as response:
            return json.loads(response.read())

    def create(self, seats: dict[str, str]) -> dict[str, Any]:
        """A new table with ``seats`` (the other seats are bots), as ``POST /api/tables``."""
        created: dict[str, Any] = self.api("/api/tables", {"seats": seats})
        return created


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/api/options", timeout=1) as response:
            return bool(response.status == 200)
    except OSError:
        return False


def _start_server(workdir: Path, *options: str) -> Served:
    """``baloot serve`` over ``workdir/tables.db``, with ``options`` after the usual ones."""
    source = str(Path(baloot.__file__).resolve().parents[1])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [source, env.get("PYTHONPATH")]))
    log = workdir / "serve.log"
    for _ in range(3):  # another program may take the free port first
        port = free_port()
        command = [sys.executable, "-m", "baloot", "serve", "--port", str(port)]
        command += ["--db", str(workdir / "tables.db"), "--bot-pause", "0"]
        crashing = workdir / "crashing_bot.py"
        crashing.write_text(CRASHING_BOT, encoding="utf-8")
        command += ["--bot", f"crashing={crashing}", *options]
        with log.open("ab") as out:
            process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + WAIT
        while process.poll() is None and time.monotonic() < deadline:
            if _answers(url):
                return Served(url, process, log)
            time.sleep(0.1)
        _stop_server(process)
    raise AssertionError(f"baloot serve did not start:\n{log.read_text(errors='replace')}")


def _stop_server(process: subprocess.Popen[bytes]) -> int:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            return process.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            process.kill()
    return process.wait()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    served = _start_server(tmp_path_factory.mktemp("serve"))
    yield served
    status = _stop_server(served.process)
    # The server stops cleanly, then ends by the signal (the shell's status 143).
    assert status == -signal.SIGTERM, f"baloot serve ended with {status}:\n{served.log.read_text()}"


# --------------------------------------------------------------------------- the browser


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    path = chromium_path()
    if path is None:
        named = os.environ.get("BALOOT_CHROMIUM") or "/usr/bin/chromium"
        _missing(f"no Chromium at {named} (set BALOOT_CHROMIUM to a Chromium executable)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots go: ``$BALOOT_ARTIFACTS``, else a temporary directory of the run."""
    named = os.environ.get("BALOOT_ARTIFACTS")
    where = Path(named) if named else tmp_path_factory.mktemp("browser-artifacts")
    where.mkdir(parents=True, exist_ok=True)
    return where


@dataclass
class Pages:
    """Opens pages in fresh browser contexts and remembers every script error they show."""

    browser: Browser
    base: str
    contexts: list[BrowserContext] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def open(
        self, path: str, viewport: dict[str, int] | None = None, *, motion: bool = False
    ) -> Page:
        """``path`` in a new context of its own (its own storage, like another person).

        The page is asked for reduced motion unless ``motion``: then nothing on it moves or
        waits, and it shows each message as it comes (its paced movement has tests of its own).
        """
        context = self.browser.new_context(
            viewport=viewport or DESKTOP,  # type: ignore[arg-type]
            base_url=self.base,
            accept_downloads=True,
            reduced_motion="no-preference" if motion else "reduce",
        )
        context.set_default_timeout(WAIT_MS)
        self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: self.errors.append(f"{path}: {error}"))
        page.on(
            "console",
            lambda message: (
                self.errors.append(f"{path}: console: {message.text}")
                if message.type == "error"
                else None
            ),
        )
        page.goto(path)
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def pages(browser: Browser, server: Served) -> Iterator[Pages]:
    opened = Pages(browser, server.url)
    yield opened
    opened.close()
    assert opened.errors == [], "the pages reported script errors"


# --------------------------------------------------------------------------- the page


def visible(page: Page, selector: str) -> Locator:
    return page.locator(selector).filter(visible=True)


def decisions(page: Page) -> list[str]:
    """The decisions the page offers now: its visible ``data-action`` values.

    Each must be enabled, and a seat's page offers only its own seat's actions or ``next``.
    """
    return offered(
        visible(page, "[data-action]").evaluate_all(
            "els => els.map(e => [e.dataset.action, e.disabled === true])"
        )
    )


def offered(found: list[list[Any]]) -> list[str]:
    """The actions of ``found`` (each ``[action, disabled]``): none disabled, none twice."""
    actions = [action for action, _ in found]
    assert not any(disabled for _, disabled in found), f"a disabled decision: {found}"
    assert len(set(actions)) == len(actions), f"a decision offered twice: {actions}"
    return actions


@dataclass(frozen=True)
class Glance:
    """What a table page shows a player now, read in one round trip: whether the match is
    over (its record's link), whether Sawa is offered, and the decisions offered (as
    :func:`decisions` reads and checks them)."""

    over: bool
    sawa: bool
    actions: list[str]


#: The script of :func:`glance`: an element is visible as Playwright means it (a box, and
#: not hidden by ``visibility``).
_GLANCE = """() => {
  const shown = e => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden";
  const all = s => [...document.querySelectorAll(s)].filter(shown);
  return {
    over: all(".record-link").length > 0,
    message: document.querySelector("#message")?.textContent ?? "",
    sawa: all('[data-control="claim"]:not([disabled])').length > 0,
    found: all("[data-action]").map(e => [e.dataset.action, e.disabled === true]),
  };
}"""


def glance(page: Page) -> Glance:
    """The page's :class:`Glance`; a refused click, a disabled decision or one offered twice
    fails the test."""
    seen = page.evaluate(_GLANCE)
    assert REJECTED not in seen["message"], f"the server refused a click: {seen['message']}"
    return Glance(seen["over"], seen["sawa"], offered(seen["found"]))


def check_offer(actions: list[str], seat: str) -> None:
    """A seat's page offers its own seat's actions, or ``next``."""
    for action in actions:
        assert action == "next" or action.startswith(seat + " "), action


def no_reject(page: Page) -> None:
    message = page.locator("#message").text_content() or ""
    assert REJECTED not in message, f"the server refused a click: {message}"


def wait_for_decision(page: Page, also: str | None = None) -> None:
    """Wait until the page offers a decision (or shows ``also``)."""
    target = page.locator("[data-action]")
    if also is not None:
        target = target.or_(page.locator(also))
    target.filter(visible=True).first.wait_for()


def hand_cards(page: Page) -> list[str]:
    """The cards of the seat's own hand, as the page names them (``10♥``)."""
    labels: list[str] = page.locator("#hand .hand-card").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    )
    return labels


def click(page: Page, action: str) -> None:
    """Click the decision ``action`` (found by its value, whatever re-rendering happened)."""
    visible(page, f'[data-action="{action}"]').click()


#: How long :func:`take` waits for a decision it saw to be clickable, in milliseconds.
TAKE_MS = 10_000


def take(choice: Locator) -> bool:
    """Click ``choice`` (a decision, the Sawa claim) if the page still offers it; whether it did.

    Between reading a page's decisions and clicking one the server may have moved on without
    this seat (the next hand dealt when its wait ran out, a stand-in's card while the page was
    reconnecting): a test driving several pages in turn then reads them all again rather than
    wait on one page for a decision that is gone.
    """
    try:
        choice.filter(visible=True).click(timeout=TAKE_MS)
    except PlaywrightTimeout:
        return False
    return True


def shot(page: Page, artifacts: Path, name: str) -> None:
    page.screenshot(path=str(artifacts / f"{name}.png"), full_page=True)


# --------------------------------------------------------------------------- the tests


def test_a_whole_match_against_three_bots_by_clicking_the_page(
    pages: Pages, server: Served, artifacts: Path
) -> None:
    lobby = pages.open("/")
    # The form as a person fills it: South is a person, the others stay bots.
    lobby.locator("#seat-S").wait_for()
    assert lobby.locator("#seat-S").input_value() == "human"
    for seat in "NEW":  # the default level is preselected; the quick one is chosen here
        assert lobby.locator(f"#seat-{seat}").input_value() == "bot:medium"
        lobby.locator(f"#seat-{seat}").select_option("bot:heuristic")
    lobby.locator("#name-S").fill("Saad")
    shot(lobby, artifacts, "lobby")
    lobby.locator("#create-btn").click()
    go = lobby.locator("#links a.btn.primary")
    go.wait_for()
    shot(lobby, artifacts, "lobby-created")
    go.click()
    lobby.wait_for_url(re.compile(r"/t/[^/?]+\?token="))
    page = lobby
    table = page.url.split("/t/")[1].split("?")[0]

    rng = random.Random(20240601)
    mine: list[str] = []  # what South did, in order
    screens = {"mid": False, "sheet": False}
    for _ in range(2000):
        wait_for_decision(page, also=".record-link")
        seen = glance(page)
        if seen.over:
            break
        offered = seen.actions
        check_offer(offered, "S")
        if not offered:  # the page moved on between the two looks
            continue
        if offered == ["next"]:
            if not screens["sheet"]:
                expect_sheet(page)
                shot(page, artifacts, "sheet-after-hand")
                screens["sheet"] = True
            click(page, "next")
            continue
        assert "next" not in offered
        if (
            not screens["mid"]
            and len(hand_cards(page)) == 5
            and page.locator("#center .played").count()
        ):
            shot(page, artifacts, "table-mid-hand")
            screens["mid"] = True
        action = rng.choice(offered)
        click(page, action)
        mine.append(action)
    else:
        raise AssertionError("the match did not end")

    winner_text = page.locator("#sheet .winner").text_content()
    expect_deal_verified(page)  # a later hand: dealt with the entropy sent with "next"
    shot(page, artifacts, "match-over")
    link = page.locator(".record-link")
    assert link.get_attribute("href") == f"/api/matches/{table}/record"
    with page.expect_download() as downloading:
        link.click()
    text = Path(downloading.value.path()).read_text(encoding="utf-8")
    assert "baloot/1" in text
    record = loads(text)  # which checks every hand's fair table against its deck
    assert all(hand.fair is not None for hand in record.hands)
    played = replay(record)
    assert played.winner is not None
    expected = "You won the match!" if played.winner.name == "NS" else "They won the match."
    assert winner_text == expected
    assert record.metadata["players"]["S"] == "Saad"
    # Every click was taken as it was: South's actions in the record are the clicks (a play
    # may be written with the word the table heard, as "S play Kh baloot" for "S play Kh").
    recorded = [a for hand in record.hands for a in hand.actions if a.startswith("S ")]
    assert len(recorded) == len(mine), (recorded, mine)
    for written, clicked in zip(recorded, mine, strict=True):
        assert written == clicked or written.startswith(clicked + " "), (written, clicked)
    totals = page.locator("#score").text_content() or ""
    ns, ew = played.match.totals
    assert f"Us {ns}" in totals and f"Them {ew}" in totals

    # The result screen offers a new match, and a rematch: the same seats at a new table,
    # South's own token its seat there; a spectator of the match is offered to watch it.
    assert page.locator("#sheet .result-title").text_content() == "Match over"
    assert page.locator("#new-match").get_attribute("href") == "/"
    token = page.url.split("token=")[1].split("&")[0]
    watcher = pages.open(f"/t/{table}")
    watcher.locator("#new-match").wait_for()
    page.locator("#rematch").click()
    page.wait_for_url(lambda url: "/t/" in url and table not in url)
    again = page.url.split("/t/")[1].split("?")[0]
    assert page.url.endswith(f"/t/{again}?token={token}")
    described = server.api(f"/api/tables/{again}")
    assert described["players"] == {**record.metadata["players"], "S": "Saad"}
    assert described["humans"] == ["S"] and described["status"] == "playing"
    wait_for_decision(page)
    assert server.api(f"/api/tables/{table}")["rematch"] == again
    assert watcher.locator("#join-rematch").get_attribute("href") == f"/t/{again}"
    # This browser's tables: the rematch, and the finished match leading to it.
    page.goto("/")
    finished = page.locator(f'#my-tables li[data-table="{table}"] a')
    assert finished.get_attribute("href") == f"/t/{again}?token={token}"
    assert page.locator(f'#my-tables li[data-table="{again}"]').count() == 1
    # Once nobody is left at the finished table, its page says the match is over and leads
    # to the rematch, not "no such table".
    watcher.close()
    page.goto(f"/t/{table}?token={token}")
    notice = page.locator("#status .finished-notice")
    notice.wait_for()
    assert notice.locator("#join-rematch").get_attribute("href") == f"/t/{again}?token={token}"


def expect_sheet(page: Page) -> None:
    """The score sheet after a hand: its title, the result line and the running score."""
    sheet = page.locator("#sheet")
    assert sheet.is_visible()
    assert "hand 1" in (sheet.locator("h2").text_content() or "").lower()
    assert sheet.locator(".result").is_visible()
    try:  # the worded lines come from /api/words
        sheet.locator(".sheet-lines li").first.wait_for()
    except Exception as error:
        raise AssertionError(f"no worded sheet lines in {sheet.inner_html()}") from error
    assert page.locator("#running table").count() == 1
    expect_deal_verified(page)


def expect_deal_verified(page: Page) -> None:
    """The sheet's line that says the page checked the hand's deal (fair deals), and its link
    to the page that explains how anyone can."""
    line = page.locator('#sheet [data-fair="verified"]')
    line.wait_for()
    assert (line.text_content() or "").startswith("Deal verified ✓")
    assert line.locator("a").get_attribute("href") == "/fair"


def play_until(page: Page, seat: str, done: Callable[[Page], bool], limit: int = 200) -> None:
    """Click the first decision offered until ``done``; it is checked when a decision waits."""
    for _ in range(limit):
        wait_for_decision(page)
        offered = glance(page).actions
        if done(page):
            return
        check_offer(offered, seat)
        if offered:
            click(page, offered[0])
    raise AssertionError("never done")


def playing(page: Page) -> bool:
    return visible(page, "#hand [data-action]").count() > 0


def test_a_reload_in_the_middle_of_a_hand_loses_nothing(pages: Pages, server: Served) -> None:
    created = server.create({"S": "human"})
    page = pages.open(created["seats"]["S"]["url"])
    # Until South has played two cards and must play again.
    play_until(page, "S", lambda p: playing(p) and len(hand_cards(p)) <= 6)
    before = table_state(page)
    assert len(before["hand"]) <= 6 and before["contract"]

    page.reload()
    wait_for_decision(page)
    after = table_state(page)
    assert after == before

    # Play goes on from there.
    card = decisions(page)[0]
    click(page, card)
    expect(page.locator("#hand .hand-card")).to_have_count(len(before["hand"]) - 1)
    no_reject(page)


def test_a_reload_after_a_hand_shows_its_score_sheet_again(pages: Pages, server: Served) -> None:
    created = server.create({"S": "human"})
    page = pages.open(created["seats"]["S"]["url"] + "&lang=ar")
    play_until(page, "S", lambda p: visible(p, '[data-action="next"]').count() > 0)
    lines = page.locator("#sheet .sheet-lines li")
    lines.first.wait_for()
    before = lines.all_inner_texts()
    assert before and all(ARABIC.search(line) for line in before)
    # A seat's Arabic sheet names the teams لنا and لهم, never NS or EW.
    assert not any(re.search(r"\b(NS|EW)\b", line) for line in before), before
    assert any("لنا" in line for line in before), before
    page.reload()
    visible(page, '[data-action="next"]').first.wait_for()
    lines.first.wait_for()
    assert lines.all_inner_texts() == before


def test_a_bot_program_that_fails_is_shown_not_answering(
    pages: Pages, server: Served, artifacts: Path
) -> None:
    created = server.create({"S": "human", "N": "bot:crashing"})
    page = pages.open(created["seats"]["S"]["url"])
    partner = page.locator("#seat-top")
    play_until(page, "S", lambda p: "not answering" in partner.inner_text())
    assert "crashing" in partner.inner_text()
    assert partner.locator(".dot.off").count() == 1
    shot(page, artifacts, "table-bot-not-answering")


def table_state(page: Page) -> dict[str, Any]:
    """What the table shows a seat: hand, decisions, contract, trick, score, seats."""
    return {
        "hand": hand_cards(page),
        "decisions": decisions(page),
        "contract": page.locator("#contract").inner_text(),
        "center": page.locator("#center").inner_text(),
        "trick": page.locator("#center .card").evaluate_all(
            "els => els.map(e => e.getAttribute('aria-label'))"
        ),
        "score": page.locator("#score").inner_text(),
        "seats": page.locator("#felt .seat").all_inner_texts(),
    }


def test_two_browsers_play_as_partners_at_one_table(
    pages: Pages, server: Served, artifacts: Path
) -> None:
    """Two partners play a hand, with a turn timer, and talk; a spectator reads the talk."""
    created = server.api("/api/tables", {"seats": {"S": "human", "N": "human"}, "timer": 60})
    south = pages.open(created["seats"]["S"]["url"])
    north = pages.open(created["seats"]["N"]["url"])
    watcher = pages.open(created["spectate"])
    seats = {"S": south, "N": north}

    # The server's turn timer: a ring counts down on the acting seat, for everyone.
    ring = watcher.locator("#felt .seat.to-act .deadline-ring")
    ring.wait_for()
    assert 0 < int(ring.locator(".seconds").inner_text()) <= 60
    assert "seconds" in (ring.get_attribute("aria-label") or "")

    # Table talk: a quick phrase reaches the partner (a bubble on the seat, the log) and the
    # spectator, who may read but not talk; a mute hides a player's lines in this browser.
    north.locator('#talk [data-phrase="يا هلا"]').click()
    south.locator("#seat-top [data-bubble]").get_by_text("يا هلا").wait_for()
    watcher.locator('#talk .talk-log li[data-said="N"]').get_by_text("يا هلا").wait_for()
    assert watcher.locator("#talk .talk-form").is_hidden()
    south.locator("#talk .talk-input").fill("well played, partner")
    south.locator('#talk [data-control="say"]').click()
    north.locator('#talk .talk-log li[data-said="S"]').get_by_text("well played").wait_for()
    shot(watcher, artifacts, "table-talk-and-countdown")
    south.locator('#talk [data-mute="N"]').click()
    expect(south.locator('#talk .talk-log li[data-said="N"]')).to_have_count(0)
    south.locator('#talk [data-mute="N"]').click()
    expect(south.locator('#talk .talk-log li[data-said="N"]')).to_have_count(1)

    # Whoever has a decision makes it, until the hand is over on both pages.
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        over = [visible(p, '[data-action="next"]').count() > 0 for p in seats.values()]
        if all(over):
            break
        acted = False
        for seat, page in seats.items():
            offered = [a for a in glance(page).actions if a != "next"]
            check_offer(offered, seat)
            if offered:
                click(page, offered[0])
                acted = True
        if not acted:
            south.wait_for_timeout(20)
    else:
        raise AssertionError("the first hand did not end in both browsers")

    for page in seats.values():
        assert "hand 1" in (page.locator("#sheet h2").text_content() or "").lower()
    # Two humans: the next hand is dealt at the server's deadline, counted down on the sheet.
    countdown = south.locator('#sheet .next-countdown [data-deadline-kind="next"]')
    countdown.wait_for()
    assert re.search(r"dealt in \d+ s", countdown.inner_text())
    click(south, "next")
    # South waits for North, and says so; South is no longer listed as awaited.
    awaited = south.locator("#sheet .awaited")
    awaited.get_by_text("North").wait_for()
    assert "You" not in awaited.inner_text() and "South" not in awaited.inner_text()
    click(north, "next")
    for page in seats.values():
        expect(page.locator("#score .score-hand")).to_have_text("Hand 2")
        page.locator("#sheet").wait_for(state="hidden")
        page.locator("#hand .hand-card").first.wait_for()
        # five cards while bidding; eight once a Sun bid before them ended it
        assert len(hand_cards(page)) in (5, 8)
    # The same deal, seen from both sides: no card is in both hands.
    assert not set(hand_cards(south)) & set(hand_cards(north))


def test_the_arabic_pages_read_right_to_left(pages: Pages, server: Served) -> None:
    lobby = pages.open("/?lang=ar")
    html = lobby.locator("html")
    assert html.get_attribute("dir") == "rtl" and html.get_attribute("lang") == "ar"
    lobby.locator("#seat-S").wait_for()
    assert ARABIC.search(lobby.locator("h1").inner_text())
    assert ARABIC.search(lobby.locator("#create-btn").inner_text())

    created = server.create({"S": "human"})
    url = created["seats"]["S"]["url"]
    token = created["seats"]["S"]["token"]
    page = pages.open(url + "&lang=ar")
    html = page.locator("html")
    assert html.get_attribute("dir") == "rtl" and html.get_attribute("lang") == "ar"
    page.locator("#prompt.mine").wait_for()  # South's turn, asked in words
    # South's first decision is a bid, unless a Sun bid before it ended the bidding: then a
    # card (whose face has no words) and perhaps a project to declare.
    for label in visible(page, "[data-action]:not(.hand-card)").all_inner_texts():
        assert ARABIC.search(label), label
    assert ARABIC.search(page.locator("#prompt").inner_text())
    cards = hand_cards(page)
    assert len(cards) == (8 if playing(page) else 5)  # the deal is completed after bidding

    switch = page.locator("#lang-switch")
    assert f"token={token}" in (switch.get_attribute("href") or "")
    switch.click()
    page.wait_for_url(re.compile(r"lang=en"))
    assert f"token={token}" in page.url
    assert page.locator("html").get_attribute("dir") == "ltr"
    wait_for_decision(page)
    assert hand_cards(page) == cards  # still South's seat, not a spectator
    assert page.locator("#lang-switch").get_attribute("href") == f"{url_path(url)}&lang=ar"

    fair = pages.open("/fair?lang=ar")  # how anyone can check a deal, in Arabic
    assert fair.locator("html").get_attribute("dir") == "rtl"
    assert ARABIC.search(fair.locator("h1").inner_text())
    assert "baloot verify" in fair.locator("pre").inner_text()
    derived = fair.evaluate(  # the page's own derivation holds the spec's example
        """async () => {
            const fair = await import("/static/fair.js");
            const secret = "00112233445566778899aabbccddeeff".repeat(2);
            const deck = await fair.derivedDeck(secret, {S: "9f"});
            return [await fair.commitmentOf(secret), deck.join(" ")];
        }"""
    )
    assert derived == [
        "4773d12e2371bb935b9a0f5439b4a1c3ad3f2414b86980f8418d1cfabdfadfef",
        "8d Qs 9s 7h Ts Ac Td Jd 8s Jc Qh Kd Qc 7s Ad 8h 8c 9c Ah 9h Kh Tc Jh 7c 7d Qd Kc Js As "
        "Th Ks 9d",
    ]


def url_path(url: str) -> str:
    return url.split("#")[0]


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_phone_shows_the_table_without_sideways_scrolling(
    pages: Pages, server: Served, artifacts: Path, lang: str
) -> None:
    created = server.create({"S": "human"})
    page = pages.open(f"{created['seats']['S']['url']}&lang={lang}", viewport=PHONE)
    wait_for_decision(page)
    fits_the_phone(page)
    card_faces_fit(page)
    if lang == "ar":
        shot(page, artifacts, "table-phone-ar-bidding")
    play_until(page, "S", playing)
    fits_the_phone(page)
    card_faces_fit(page)
    buttons = visible(page, "#hand [data-action]")
    assert buttons.count() > 0
    for i in range(buttons.count()):
        box = buttons.nth(i).bounding_box()
        assert box is not None
        assert box["width"] >= 36, f"a card button {box['width']:.0f} px wide"
        assert box["height"] >= 36, f"a card button {box['height']:.0f} px high"
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    for i in range(visible(page, "#actions [data-action]").count()):
        box = visible(page, "#actions [data-action]").nth(i).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    shot(page, artifacts, f"table-phone-{lang}")


def card_faces_fit(page: Page) -> None:
    """Every card drawn on the page shows its rank and suits inside the card's face."""
    outside: list[list[float]] = page.locator(".card-svg").evaluate_all(
        """svgs => svgs.flatMap(svg => {
            const s = svg.getBoundingClientRect();
            return [...svg.querySelectorAll("text")].map(t => {
                const r = t.getBoundingClientRect();
                return [s.left - r.left, r.right - s.right, s.top - r.top, r.bottom - s.bottom];
            });
        })"""
    )
    assert outside, "no card face drawn"
    worst = max(max(sides) for sides in outside)
    assert worst <= 1, f"a card's rank or suit is drawn {worst:.0f} px outside the card"


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_phone_shows_the_lobby_and_every_rule_variant_without_sideways_scrolling(
    pages: Pages, artifacts: Path, lang: str
) -> None:
    page = pages.open(f"/?lang={lang}", viewport=PHONE)
    page.locator("#flag-ashkal_mode").wait_for(state="attached")
    page.locator("details").first.evaluate("details => { details.open = true; }")
    visible(page, "#flag-ashkal_mode").first.wait_for()
    fits_the_phone(page)
    if lang == "ar":
        shot(page, artifacts, "lobby-phone-ar")


def fits_the_phone(page: Page) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide on a {PHONE['width']} px phone"


def test_a_spectator_sees_the_table_but_no_hand(pages: Pages, server: Served) -> None:
    created = server.create({"S": "human"})
    south = pages.open(created["seats"]["S"]["url"])
    play_until(south, "S", playing)  # a trick under way, South to play
    wait_for_decision(south)
    held = hand_cards(south)

    watcher = pages.open(created["spectate"])
    expect(watcher.locator("#status")).to_have_text("You are watching (spectator).")
    watcher.locator("#felt").wait_for()
    expect(watcher.locator("#prompt")).to_contain_text("South")
    assert watcher.locator("[data-action]").count() == 0
    assert watcher.locator("#hand .hand-card").count() == 0
    assert not watcher.locator("#hand").is_visible()
    # The exposed card is public, also once its taker holds it (before trick 1 it stays shown).
    shown = watcher.locator(".card").evaluate_all(
        "els => els.filter(e => !e.closest('.exposed')).map(e => e.getAttribute('aria-label'))"
    )
    assert not set(shown) & set(held), "the spectator sees a card in South's hand"
    # South's cards stay face down for the spectator: the seat shows how many, not which.
    assert re.search(r"\b\d+ cards?\b", watcher.locator("#seat-bottom").inner_text())


def test_a_table_that_could_not_be_restored_says_so_on_its_page(
    browser: Browser, tmp_path: Path, artifacts: Path
) -> None:
    """Its kept steps cannot be replayed: the page says the table is kept but cannot be
    served, in the reader's language, instead of retrying for ever or calling it unknown."""
    with open_store(str(tmp_path / "tables.db")) as store:
        room = Room.create({Seat.S: Player.human("S")}, room_id="broken1")
        store.create(room.config(timer=None, public=False, created=1.0))
        no_such_play = Step(StepKind.ACT, 1, Seat.S, "c1", ("S play As",))  # in the bidding
        store.append("broken1", [no_such_play], first=0)
    served = _start_server(tmp_path)
    pages = Pages(browser, served.url)
    try:
        seat = pages.open(f"/t/broken1?token={room.tokens[Seat.S]}")
        expect(seat.locator("#status")).to_contain_text("could not be brought back")
        arabic = pages.open("/t/broken1?lang=ar")
        expect(arabic.locator("#status")).to_contain_text("تعذّرت استعادة هذه الطاولة")
        shot(arabic, artifacts, "unrestorable-ar")
    finally:
        pages.close()
        _stop_server(served.process)
    assert pages.errors == []
