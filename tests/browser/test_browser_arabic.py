"""The Arabic pages in a real browser (``baloot serve`` and Chromium, as in ``test_browser.py``;
skipped without Chromium, failed under ``CI=true``): every bot and rule flag by a name and a
line in Arabic (no code name, none broken inside a word on a phone), signed numbers with their
sign on its side, and a person who gave no name shown as a person, not by a seat's letter."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from helpers import free_port
from spec_example import record_text
from test_analysis import THROWN_ACTIONS, THROWN_DECK
from test_browser import (
    ARABIC,
    PHONE,
    Pages,
    artifacts,  # noqa: F401 - a fixture
    browser,  # noqa: F401 - a fixture
    fits_the_phone,
    shot,
    visible,
)
from test_browser_table_help import QUICK_BOT, Restartable, create

from baloot.server.journal import TableConfig
from baloot.server.storage import open_store

if TYPE_CHECKING:  # imported by test_browser, which skips the module without Playwright
    from pathlib import Path

    from playwright.sync_api import Browser, Locator

#: A finished match of engines, South a person who gave no name (known by the seat's letter).
PLAYERS = {"N": "bot:ismcts", "E": "bot:expert:fast", "S": "S", "W": "bot:random"}
LATIN = re.compile(r"[A-Za-z]")
#: The words (runs of non-space) of each element drawn on more than one line.
BROKEN_WORDS = """els => els.flatMap((box) => {
    const broken = [];
    const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
        for (const word of text.data.matchAll(/\\S+/g)) {
            const range = document.createRange();
            range.setStart(text, word.index);
            range.setEnd(text, word.index + word[0].length);
            const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
            if (lines.size > 1) broken.push(word[0]);
        }
    }
    return broken;
})"""
#: Each signed number of the elements whose sign is drawn after its first digit.
SIGNS_ON_THE_WRONG_SIDE = """els => els.flatMap((box) => {
    const wrong = [];
    const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
        for (const sign of text.data.matchAll(/[+\\u2212-](?=\\d)/g)) {
            const at = (start) => {
                const range = document.createRange();
                range.setStart(text, start);
                range.setEnd(text, start + 1);
                return range.getBoundingClientRect();
            };
            if (at(sign.index).left > at(sign.index + 1).left) {
                wrong.push(text.data.slice(Math.max(0, sign.index - 6), sign.index + 5));
            }
        }
    }
    return wrong;
})"""


@pytest.fixture(scope="module")
def serving(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Restartable]:
    """The server (its analyses judged by a small bot), with the thrown hand's match kept."""
    workdir = tmp_path_factory.mktemp("serve-arabic")
    players = "".join(f'{seat} = "{player}"\n' for seat, player in PLAYERS.items())
    text = record_text(THROWN_ACTIONS, deck=THROWN_DECK) + "[players]\n" + players
    with open_store(str(workdir / "tables.db")) as store:
        config = TableConfig("thrown", PLAYERS, ("S",), "classic", 7, None, True, {}, 1.7e9)
        store.create(config)
        store.finish("thrown", text, {"players": PLAYERS, "winner": "EW"}, when=1.7e9 + 60)
    served = Restartable(workdir, free_port(), options=("--analysis-bot", QUICK_BOT))
    served.start()
    yield served
    served.stop()


@pytest.fixture
def pages(browser: Browser, serving: Restartable) -> Iterator[Pages]:  # noqa: F811
    opened = Pages(browser, serving.url)
    yield opened
    opened.close()
    assert opened.errors == [], "the pages reported script errors"


def texts(locator: Locator) -> list[str]:
    found: list[str] = locator.evaluate_all("els => els.map((e) => e.textContent)")
    return found


def arabic_only(found: list[str], what: str) -> None:
    """Each text is Arabic words, with no letter of a code name."""
    assert found, f"no {what}"
    for text in found:
        assert ARABIC.search(text) and not LATIN.search(text), f"{what}: {text!r}"


def test_the_arabic_lobby_and_table_name_every_bot_and_rule_flag_in_arabic_on_a_phone(
    pages: Pages,
    serving: Restartable,
    artifacts: Path,  # noqa: F811
) -> None:
    lobby = pages.open("/?lang=ar", viewport=PHONE)
    lobby.locator("#flag-ashkal_mode").wait_for(state="attached")
    lobby.locator("#flags-box").evaluate("details => { details.open = true; }")
    visible(lobby, ".flag .flag-name").first.wait_for()
    arabic_only(texts(lobby.locator(".flag .flag-name")), "a rule flag's name")
    arabic_only(texts(lobby.locator(".flag .flag-help")), "a rule flag's line")
    broken: list[str] = lobby.locator(".flag .flag-name").evaluate_all(BROKEN_WORDS)
    assert broken == [], f"words broken across lines: {broken}"
    # Every bot of the server, the levels and the engines, by its Arabic name and line.
    arabic_only(texts(lobby.locator("#quick-level option")), "a bot's name")
    lines = lobby.locator("#quick-level option").evaluate_all("els => els.map((e) => e.title)")
    arabic_only(lines, "a bot's line")
    for bot in ("bot:ismcts", "bot:random", "bot:expert"):
        lobby.locator("#quick-level").select_option(bot)
        arabic_only([lobby.locator("#quick .bot-line").inner_text()], "the chosen bot's line")
    fits_the_phone(lobby)
    shot(lobby, artifacts, "lobby-flags-phone-ar")

    created = create(serving, {"S": "human", "N": "bot:random", "E": "bot:heuristic"})
    table = pages.open(created["seats"]["S"]["url"] + "&lang=ar", viewport=PHONE)
    table.locator("#seat-top .sub").first.wait_for()
    arabic_only(texts(table.locator("#felt .seat .sub")), "a bot at the table")


def test_the_arabic_history_and_analysis_keep_signs_beside_their_numbers_and_no_code_name(
    pages: Pages,
    artifacts: Path,  # noqa: F811
) -> None:
    history = pages.open("/history?lang=ar")
    players = history.locator('[data-match="thrown"] .players')
    players.wait_for()
    said = players.inner_text()
    arabic_only([said], "the history's players")
    assert "جنوب: لاعب" in said and ": S" not in said, said
    shot(history, artifacts, "history-ar")

    analysis = pages.open("/t/thrown/hands/1/analysis?lang=ar")
    analysis.locator("#decisions tbody tr[data-position]").first.wait_for()
    arabic_only(texts(analysis.locator("#decisions thead th").last), "the bot's column")
    arabic_only(texts(analysis.locator("#summary tbody th")), "a seat of the summary")
    notes = analysis.locator("#analysis-notes").inner_text()
    assert not LATIN.search(notes), notes
    wrong: list[str] = analysis.locator(
        "#decisions tbody td, #summary tbody td, #analysis-notes p"
    ).evaluate_all(SIGNS_ON_THE_WRONG_SIDE)
    assert wrong == [], f"signs drawn after their numbers: {wrong}"
    shot(analysis, artifacts, "analysis-signs-ar")
