"""The table's feel in a real browser (``baloot serve`` and Chromium, as in ``test_browser.py``;
skipped without Chromium, failed under ``CI=true``): one tap to play and the tables this
browser holds, the cards coming at a pace the eye follows and in the order played, the hand
under the thumb on a phone, the top bar in view, the score sheet as players know it, the
sound switch, keyboard play, and no serious accessibility fault (axe-core, run in the page).

axe-core comes from the npm registry into ``node_modules/`` (``scripts/setup dev``); without
it the accessibility checks are skipped, except under ``CI=true``, where they fail.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from helpers import ROOT, WAIT
from test_browser import (
    ARABIC,
    IN_CI,
    PHONE,
    Pages,
    Served,
    artifacts,  # noqa: F401 - a fixture
    browser,  # noqa: F401 - a fixture
    decisions,
    fits_the_phone,
    hand_cards,
    play_until,
    playing,
    server,  # noqa: F401 - a fixture
    shot,
    visible,
    wait_for_decision,
)

if TYPE_CHECKING:  # imported by test_browser, which skips the module without Playwright
    from playwright.sync_api import Browser, Page

#: axe-core as ``scripts/setup dev`` installs it.
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
#: The least time (ms) another seat's card stays the newest on the felt (``CARD_MS`` of
#: motion.js, counted from when the card before it was drawn), less the few milliseconds a
#: browser's timers may round away.
CARD_PACE_MS = 650 - 30


@pytest.fixture
def pages(browser: Browser, server: Served) -> Iterator[Pages]:  # noqa: F811
    opened = Pages(browser, server.url)
    yield opened
    opened.close()
    assert opened.errors == [], "the pages reported script errors"


def serious_faults(page: Page) -> list[str]:
    """The serious and critical accessibility violations axe-core finds on the page now."""
    if not AXE.is_file():
        reason = f"no axe-core at {AXE} (scripts/setup dev installs it with npm)"
        if IN_CI:
            pytest.fail(f"CI=true and {reason}", pytrace=False)
        pytest.skip(reason)
    # Through the browser's own channel, not a <script>: the pages allow no inline script.
    page.evaluate(AXE.read_text(encoding="utf-8") + "\n;undefined")
    found: list[str] = page.evaluate(
        """async () => {
            const result = await axe.run(document, { resultTypes: ["violations"] });
            return result.violations
              .filter((v) => v.impact === "serious" || v.impact === "critical")
              .map((v) => `${v.id}: ${v.help} at ` +
                v.nodes.slice(0, 4).map((n) => n.target.join(" ")).join(", "));
        }"""
    )
    return found


def no_serious_fault(page: Page, where: str) -> None:
    faults = serious_faults(page)
    assert faults == [], f"{where}: {faults}"


def play_by_keyboard(page: Page) -> str:
    """Tab to the first decision the page offers and press Enter; the action taken."""
    for _ in range(80):
        page.keyboard.press("Tab")
        action = page.evaluate("() => document.activeElement?.dataset?.action ?? null")
        if action:
            page.keyboard.press("Enter")
            return str(action)
    raise AssertionError("no decision could be reached with the Tab key")


def test_one_tap_plays_against_bots_and_the_lobby_remembers_my_tables(
    pages: Pages,
    artifacts: Path,  # noqa: F811
) -> None:
    lobby = pages.open("/")
    level = lobby.locator("#quick-level")
    level.locator("option").first.wait_for(state="attached")
    # The levels first, in words; the engines under "more".
    offered = level.locator("option").evaluate_all(
        "els => els.map(e => [e.value, e.textContent, e.parentElement.tagName])"
    )
    assert [value for value, _, _ in offered[:3]] == ["bot:easy", "bot:medium", "bot:hard"]
    assert offered[0][1] == "Bot: easy" and offered[0][2] == "SELECT"
    assert ["bot:heuristic", "Bot: heuristic", "OPTGROUP"] in offered
    assert level.input_value() == "bot:medium"
    assert lobby.locator("#my-tables-box").is_hidden()
    no_serious_fault(lobby, "the lobby")

    level.select_option("bot:easy")
    lobby.locator("#quick-play").click()
    lobby.wait_for_url(re.compile(r"/t/[^/?]+\?token="))
    page = lobby
    table = page.url.split("/t/")[1].split("?")[0]
    wait_for_decision(page)
    no_serious_fault(page, "the table")

    # The table is played by keyboard alone: Tab to a decision, Enter, until a card is down.
    for _ in range(40):
        wait_for_decision(page)
        held = len(hand_cards(page))
        action = play_by_keyboard(page)
        if " play " in action:
            page.wait_for_function(
                f"() => document.querySelectorAll('#hand .hand-card').length === {held - 1}"
            )
            break
    else:
        raise AssertionError("no card was played by keyboard")

    # A closed tab is not a lost match: the lobby lists the seat, and leads back to it.
    page.goto("/")
    mine = page.locator(f'#my-tables li[data-table="{table}"]')
    mine.wait_for()
    assert "in play" in mine.inner_text()
    no_serious_fault(page, "the lobby with my tables")
    shot(page, artifacts, "lobby-my-tables")
    mine.get_by_role("link").click()
    page.wait_for_url(re.compile(rf"/t/{table}\?token="))
    wait_for_decision(page)
    page.goto("/")
    page.locator(f'#my-tables li[data-table="{table}"] button').click()
    page.locator("#my-tables-box").wait_for(state="hidden")


def test_the_cards_come_at_a_pace_in_the_order_played_and_the_hand_stays_under_the_thumb(
    pages: Pages,
    server: Served,  # noqa: F811
    artifacts: Path,  # noqa: F811
) -> None:
    created = server.create({"S": "human"})
    page = pages.open("/", viewport=PHONE, motion=True)
    # What the socket hears, and when each card first shows on the felt.
    page.add_init_script(script=WATCH)
    page.goto(created["seats"]["S"]["url"])
    assert page.evaluate("() => matchMedia('(prefers-reduced-motion: reduce)').matches") is False

    wait_for_decision(page)
    # Measured at rest: a card dealt in grows to its size as it lands.
    page.wait_for_function(
        "() => document.getAnimations().every(a => a.playState !== 'running')",
        timeout=WAIT * 1000,
    )
    hand = page.locator("#hand")
    before = hand.bounding_box()
    assert before is not None
    # The hand sits at the bottom of the screen, in the thumb's reach.
    assert abs(before["y"] + before["height"] - PHONE["height"]) <= 2, before
    for box in page.locator("#hand .hand-card").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().width)"
    ):
        assert box >= 48, f"a card {box:.0f} px wide on a phone"
    if visible(page, "#actions [data-action]").count():  # the calls open above the hand
        page.locator("#hand .hand-card").first.wait_for()
        first_card = page.locator("#hand .hand-card").first.bounding_box()
        actions = page.locator("#actions").bounding_box()
        assert first_card is not None and actions is not None
        assert actions["y"] + actions["height"] <= first_card["y"] + 8
        shot(page, artifacts, "table-phone-calls-above-the-hand")

    def second_card_down(p: Page) -> bool:
        return playing(p) and len(hand_cards(p)) <= 6

    play_until(page, "S", second_card_down)
    after = hand.bounding_box()
    assert after is not None and abs(after["y"] + after["height"] - PHONE["height"]) <= 2
    fits_the_phone(page)
    # The trick's leader is marked, once.
    page.locator("#center .played").first.wait_for()
    assert page.locator("#center .played.leads").count() == 1
    shot(page, artifacts, "table-phone-trick")

    # Two tricks played: every card heard shows, in the order heard, and another seat's card
    # never comes sooner than the pace after the one before.
    page.wait_for_function("() => window.shownCards.length >= 8")
    heard: list[str] = page.evaluate("() => window.heardPlays")
    shown: list[list[Any]] = page.evaluate("() => window.shownCards")
    cards = [label for label, _ in shown]
    plays = [action.split()[2] for action in heard]
    labels = [_label(card) for card in plays]
    # Cards on the felt before the first play heard came with the page's snapshot (the bots
    # played them while it connected): shown at once, as a snapshot is, and not paced.
    first = cards.index(labels[0]) if labels and labels[0] in cards else 0
    paced = shown[first:]
    assert labels[: len(paced)] == cards[first:], (heard, shown)
    for i in range(1, len(paced)):
        if not heard[i].startswith("S "):
            assert paced[i][1] - paced[i - 1][1] >= CARD_PACE_MS, (heard, shown)


#: Recorded from the start of the page: each card a seat plays as the socket hears it, and each
#: card of the first hand the first time it shows on the felt, with the time it did.
WATCH = """
window.heardPlays = [];
window.shownCards = [];
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      const played = message.type === "event" && / play /.test(message.action);
      if (played) heardPlays.push(message.action);
    });
  }
};
const seen = new Set();
new MutationObserver(() => {
  for (const card of document.querySelectorAll("#center .played .card")) {
    const label = card.getAttribute("aria-label");
    if (!seen.has(label)) {
      seen.add(label);
      shownCards.push([label, performance.now()]);
    }
  }
}).observe(document, { childList: true, subtree: true });
"""


def _label(card: str) -> str:
    """A card's name as the page gives it: "Th" → "10♥"."""
    suits = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
    return ("10" if card[0] == "T" else card[0]) + suits[card[1]]


def test_a_phone_keeps_the_top_bar_in_view_and_shows_the_sheet_as_players_know_it(
    pages: Pages,
    server: Served,  # noqa: F811
    artifacts: Path,  # noqa: F811
) -> None:
    created = server.create({"S": "human"})
    page = pages.open(created["seats"]["S"]["url"] + "&lang=ar", viewport=PHONE)
    wait_for_decision(page)
    no_serious_fault(page, "the Arabic table on a phone")

    # The sound switch: one tap, remembered by this browser.
    switch = page.locator("#sound-switch")
    assert switch.get_attribute("aria-pressed") == "true"
    switch.click()
    assert switch.get_attribute("aria-pressed") == "false"
    page.reload()
    wait_for_decision(page)
    assert page.locator("#sound-switch").get_attribute("aria-pressed") == "false"

    # The deals are random: a hand that all pass (annulled) has no figures, only its line.
    sheet = page.locator("#sheet")
    figures = sheet.locator(".sheet-figures")
    for _ in range(5):
        play_until(page, "S", lambda p: visible(p, '[data-action="next"]').count() > 0, limit=400)
        sheet.locator(".sheet-lines li").first.wait_for()  # drawn with the figures, if any
        if figures.count():
            break
        next_hand(page)
    else:
        raise AssertionError("five annulled hands in a row")
    heads = figures.locator("thead th").all_inner_texts()
    assert heads == ["لنا", "لهم"]
    rows = figures.locator("tbody tr").evaluate_all("els => els.map(e => e.dataset.row)")
    assert rows[:2] == ["row_tricks", "row_card_points"]
    assert rows[-2:] == ["row_written", "row_totals"]
    tricks = [int(n) for n in figures.locator('tr[data-row="row_tricks"] td').all_inner_texts()]
    assert sum(tricks) == 8 or tricks == [0, 0]
    sheet.locator(".sheet-lines li").first.wait_for()
    assert all(ARABIC.search(line) for line in sheet.locator(".sheet-lines li").all_inner_texts())
    fits_the_phone(page)
    in_view(page, "#score")
    in_view(page, "#contract")
    no_serious_fault(page, "the Arabic score sheet on a phone")
    shot(page, artifacts, "sheet-phone-ar")

    next_hand(page)
    wait_for_decision(page)
    assert page.evaluate("() => window.scrollY") == 0
    in_view(page, "#score")
    in_view(page, "#contract")
    assert not decisions(page) or "next" not in decisions(page)


def next_hand(page: Page) -> None:
    """Tap Next at a finished hand, and wait for the next hand's number."""
    number = page.locator("#score .score-hand")
    before = number.inner_text()
    page.locator('[data-action="next"]').click()
    number.filter(has_not_text=before).wait_for()


def in_view(page: Page, selector: str) -> None:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], (selector, box)
