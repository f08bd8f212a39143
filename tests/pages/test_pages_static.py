"""The pages as shipped: one head shared by all, everything they load in the package, nothing
inline (the CSP forbids it), every module they import exists, and every word has English and
Arabic, in one home: the pages' catalog, or the game's words of :mod:`baloot.words.pages`."""

from __future__ import annotations

import dataclasses
import re
from importlib import resources
from pathlib import Path

import pytest

from baloot.analysis.marks import Mark
from baloot.bots.base import available_bots
from baloot.core.cards import Suit
from baloot.core.projects import ProjectKind
from baloot.core.reasons import ReasonCode
from baloot.core.rules import CHOICES, Rules
from baloot.core.seats import Seat
from baloot.core.vocabulary import Level, Phase, QuestionKind, TrickWord
from baloot.server.app import page_html
from baloot.words.lobby import lobby_words
from baloot.words.pages import page_words
from baloot.words.strings import TABLES

STATIC = Path(str(resources.files("baloot.server") / "static"))
PAGES = (
    "lobby.html",
    "table.html",
    "history.html",
    "analysis.html",
    "fair.html",
    "account.html",
    "play.html",
    "profile.html",
    "leaderboard.html",
    "daily.html",
    "daily-deal.html",
    "daily-rules.html",
    "operator-screen.html",
    "tournaments.html",
    "tournament.html",
)
SCRIPTS = sorted(path.name for path in STATIC.glob("*.js"))


#: The page's own part of its head: its title (a page's script translates it) and its script.
OWN_HEAD = re.compile(
    r'\A<title>Baloot · بلوت</title>\n<script type="module" src="/static/[a-z-]+\.js"></script>\n\Z'
)


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("lang", ["en", "ar"])
def test_every_page_is_served_under_the_one_shared_head(page: str, lang: str) -> None:
    """The head the pages share (``head.html``: the document, its language and direction,
    charset, viewport, style sheet, icon) is written once; each page adds its title and
    script alone."""
    shared = (STATIC / "head.html").read_text(encoding="utf-8")
    assert "{{head}}" not in shared and "<title" not in shared
    file = (STATIC / page).read_text(encoding="utf-8")
    assert file.startswith("{{head}}\n") and file.count("{{head}}") == 1
    own, _, _ = file.removeprefix("{{head}}\n").partition("</head>")
    assert OWN_HEAD.match(own), own
    served = page_html(page.removesuffix(".html"), lang)
    direction = "rtl" if lang == "ar" else "ltr"
    filled = shared.replace("{{lang}}", lang).replace("{{dir}}", direction)
    assert served.startswith(filled + own + "</head>")
    assert served.count("<head>") == served.count("<meta charset") == 1
    assert f'<html lang="{lang}" dir="{direction}">' in served and "{{" not in served


@pytest.mark.parametrize("page", PAGES)
def test_a_page_loads_only_files_of_the_package(page: str) -> None:
    html = page_html(page.removesuffix(".html"), "en")
    loaded = re.findall(r'(?:src|href)="([^"]+)"', html)
    for address in loaded:
        assert not address.startswith(("http:", "https:", "//")), address
        if address.startswith("/static/"):
            assert (STATIC / address.removeprefix("/static/")).is_file(), address
    assert any(address.startswith("/static/") for address in loaded)


@pytest.mark.parametrize("page", PAGES)
def test_a_page_has_no_inline_script_style_or_handler(page: str) -> None:
    html = page_html(page.removesuffix(".html"), "en")
    for script in re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S):
        assert "src=" in script[0] and not script[1].strip()
    assert "<style" not in html and not re.search(r"\sstyle=", html)
    assert not re.search(r"\son[a-z]+=", html)


#: The modules the server writes itself (``server.app``), by the path a page imports.
WRITTEN_BY_THE_SERVER = {"/game-words.js"}


#: The pages at a fixed address, each by its file: a person finds each by following links.
FIXED_PAGES = {
    "/": "lobby.html",
    "/play": "play.html",
    "/history": "history.html",
    "/leaderboard": "leaderboard.html",
    "/account": "account.html",
    "/daily": "daily.html",
    "/daily/rules": "daily-rules.html",
    "/tournaments": "tournaments.html",
}


def test_every_page_at_a_fixed_address_is_reached_from_the_lobby_by_links() -> None:
    reached, waiting = {"/"}, ["/"]
    while waiting:
        html = (STATIC / FIXED_PAGES[waiting.pop()]).read_text(encoding="utf-8")
        for path in re.findall(r'href="(/[^"?#]*)"', html):
            if path in FIXED_PAGES and path not in reached:
                reached.add(path)
                waiting.append(path)
    assert reached == set(FIXED_PAGES), set(FIXED_PAGES) - reached


@pytest.mark.parametrize("script", SCRIPTS)
def test_every_module_a_script_imports_is_shipped(script: str) -> None:
    text = (STATIC / script).read_text(encoding="utf-8")
    for name in re.findall(r'from "\./([^"]+)"', text):
        assert (STATIC / name).is_file(), f"{script} imports {name}"
    for path in re.findall(r'from "(/[^"]+)"', text):
        assert path in WRITTEN_BY_THE_SERVER, f"{script} imports {path}"


#: The pages' helpers and what they read in the server's words (seats, bot players, action
#: notation), each by a pattern that finds it written and the one module it may be written in:
#: every other page imports it from there.
ONE_HOME = {
    "an element looked up by its id": (r"getElementById", "dom.js"),
    "an element builder": (r"function el\(", "dom.js"),
    "a bot player's prefix": (r'"bot:"', "protocol.js"),
    "an order of the seats": (
        r'\[\s*"[NESW]"\s*,\s*"[NESW]"\s*,\s*"[NESW]"\s*,\s*"[NESW]"\s*\]',
        "protocol.js",
    ),
    "an action's verb split out": (r"split\([^)]*\)\[1\]", "protocol.js"),
    "an action's text split into its words": (r"split\(/\\s\+/\)", "protocol.js"),
    "a project's kind cut from its cards": (r'split\(":"\)', "protocol.js"),
    "whether the seat leads": (r"function isLeading\(", "protocol.js"),
}


@pytest.mark.parametrize("what", ONE_HOME)
def test_a_helper_of_the_pages_is_written_in_one_module(what: str) -> None:
    pattern, home = ONE_HOME[what]
    written = [
        path.name
        for path in STATIC.glob("*.js")
        if re.search(pattern, path.read_text(encoding="utf-8"))
    ]
    assert set(written) - {home} == set(), f"{what} is written in {sorted(written)}"


def test_the_pages_draw_decisions_from_choices_never_from_legal() -> None:
    """A view's ``choices`` are its legal actions read (``docs/seat-view.md``): no page reads
    ``legal`` and splits its strings."""
    for path in STATIC.glob("*.js"):
        text = re.sub(r"^\s*//.*$", "", path.read_text(encoding="utf-8"), flags=re.M)
        assert not re.search(r"\.legal\b", text), f"{path.name} reads view.legal"


def catalog(name: str) -> set[str]:
    """The keys of one language's catalog in ``i18n.js``."""
    text = (STATIC / "i18n.js").read_text(encoding="utf-8")
    body = re.search(rf"^const {name} = \{{(.*?)^\}};", text, re.S | re.M)
    assert body is not None, name
    entry = r'(?:^|,)\s*"?([A-Za-z0-9_-]+)"?\s*:\s*["`]'
    return set(re.findall(entry, body.group(1), re.M))


def entries(name: str) -> dict[str, str]:
    """One language's catalog in ``i18n.js``, key → text (each text one plain string)."""
    text = (STATIC / "i18n.js").read_text(encoding="utf-8")
    body = re.search(rf"^const {name} = \{{(.*?)^\}};", text, re.S | re.M)
    assert body is not None, name
    entry = r'(?:^|,)\s*"?([A-Za-z0-9_-]+)"?\s*:\s*"((?:[^"\\]|\\.)*)"'
    return dict(re.findall(entry, body.group(1), re.M))


def words_of(name: str) -> set[str]:
    """Every key a page of language ``name`` may ask ``t`` for: its catalog's and the game's."""
    return catalog(name) | set(page_words("en"))


def test_english_and_arabic_have_the_same_words() -> None:
    english, arabic = catalog("EN"), catalog("AR")
    assert len(english) > 100
    assert english - arabic == set() and arabic - english == set()


def test_a_word_of_the_game_has_its_home_in_baloot_words_not_in_the_pages_catalog() -> None:
    assert set(page_words("en")) & (catalog("EN") | catalog("AR")) == set()
    assert set(entries("EN")) == catalog("EN")


#: Pages' words that read as a sentence of ``baloot.words`` by coincidence, not for saying the
#: same thing: a column's "#" (the hand's number; the analysis' position), and "no" (a rule
#: flag that is off; the word a player types at the terminal).
COINCIDENCES = {"col_hand", "no"}


def test_no_sentence_of_the_pages_copies_one_of_baloot_words() -> None:
    """A sentence the terminal says too is shown from :mod:`baloot.words.pages`: the pages'
    catalog holds no copy of it, in English and Arabic alike."""
    english, arabic = entries("EN"), entries("AR")
    theirs = {(TABLES["en"][key], TABLES["ar"][key]) for key in TABLES["en"]}

    def plain(text: str) -> str:
        return re.sub(r"\{\w+\}", "{}", text.replace('\\"', '"'))

    theirs = {(plain(en), plain(ar)) for en, ar in theirs}
    copies = {key for key in english if (plain(english[key]), plain(arabic[key])) in theirs}
    assert copies - COINCIDENCES == set(), sorted(copies - COINCIDENCES)


def test_the_game_words_a_page_shows_name_only_the_fields_a_page_fills() -> None:
    """The pages fill ``{name}`` fields: no template of theirs has a format of Python's own."""
    for lang in TABLES:
        for key, text in page_words(lang).items():
            assert re.sub(r"\{\w+\}", "", text).count("{") == 0, (lang, key, text)
            assert "}" not in re.sub(r"\{\w+\}", "", text), (lang, key, text)


def test_every_value_of_a_rule_flag_has_its_words() -> None:
    """The lobby offers each value of a flag that is not true/false by its words."""
    known = words_of("EN")
    values = {value for values in CHOICES.values() for value in values}
    assert {f"choice_{value}" for value in values} - known == set()


def test_every_bot_and_rule_flag_has_a_name_and_a_line_in_english_and_in_arabic() -> None:
    """The lobby, the table, the history and an analysis name each bot of the registry and
    each rule flag in the page's language: never by a code name, in Latin, on an Arabic page."""
    flags = {field.name for field in dataclasses.fields(Rules)}
    english, arabic = lobby_words("en"), lobby_words("ar")
    assert set(english) == set(arabic)
    for bot in available_bots():
        assert english[f"bot_name_{bot}"] and english[f"bot_line_{bot}"], bot
    for flag in flags:
        assert english[f"flag_name_{flag}"] and english[f"flag_{flag}"], flag
    assert {key.removeprefix("flag_name_") for key in english if key.startswith("flag_name_")} == (
        flags
    )
    for key, text in arabic.items():
        assert re.search(r"[\u0600-\u06ff]", text) and not re.search(r"[A-Za-z]", text), key


def test_every_word_a_page_asks_for_by_name_is_in_the_catalog() -> None:
    known = words_of("EN")
    for path in [*STATIC.glob("*.js"), *STATIC.glob("*.html")]:
        text = re.sub(r"^\s*//.*$", "", path.read_text(encoding="utf-8"), flags=re.M)
        asked = set(re.findall(r'\bt\("([A-Za-z0-9_-]+)"(?!\s*\+)', text))
        asked |= set(re.findall(r'data-i18n="([A-Za-z0-9_-]+)"', text))
        assert asked - known == set(), f"{path.name} asks for {sorted(asked - known)}"


#: The words the pages build at run time, ``t("phase_" + view.phase)``: for each prefix, the
#: values the server's JSON can put after it. A value with no word would show the page its key.
BUILT: dict[str, set[str]] = {
    # questionText words a bid by its round and a play by the lead, under keys of their own.
    "q_": {kind.value for kind in QuestionKind} - {"bid", "play"},
    "phase_": {phase.value for phase in Phase},
    "level_": {str(level.json) for level in Level if level is not Level.SINGLE},
    "seat_": {seat.name for seat in Seat},
    "suit_": {suit.letter for suit in Suit},
    "project_": {kind.word for kind in ProjectKind},
    "w_": {word for trick in TrickWord for word in trick.value.split()},
    "mark_": {mark.value for mark in Mark},
    "a_double_": {"locked", "open"},
    "a_four_": {"locked", "open"},
    "choice_": {value for values in CHOICES.values() for value in values},
    "analysis_col_": {"plays", "calls"},
    # Every bot of the registry and every rule flag has a name and a line (baloot.words.lobby).
    "bot_name_": set(available_bots()),
    "bot_line_": set(available_bots()),
    "flag_name_": {field.name for field in dataclasses.fields(Rules)},
    "flag_": {field.name for field in dataclasses.fields(Rules)},
    "reason_": {code.value for code in ReasonCode},
    "team_": {"NS", "EW"},
    # A friend's state other than friends (GET /api/friends).
    "fr_state_": {"asked", "asking", "blocked"},
    # Where a player of the daily series would go were the period over (GET /api/daily/series).
    "series_outlook_": {"up", "down", "stay"},
    # The last column of a daily board (daily.js, showBoard).
    "daily_col_": {"deals", "days", "results"},
    # A tournament's state (GET /api/tournaments).
    "to_state_": {"open", "running", "over"},
}
#: Prefixes whose word may be missing: the page shows the bare value (a preset's name), or the
#: reason as said of any seat (one said to you).
OPTIONAL = {"preset_", "you_", "preset_name_"}


def test_every_word_a_page_builds_at_run_time_is_in_both_catalogs() -> None:
    english, arabic = words_of("EN"), words_of("AR")
    for path in STATIC.glob("*.js"):
        text = re.sub(r"^\s*//.*$", "", path.read_text(encoding="utf-8"), flags=re.M)
        for prefix in set(re.findall(r'\bt\("([A-Za-z0-9_-]+)"\s*\+', text)) - OPTIONAL:
            assert prefix in BUILT, f"{path.name} builds words from {prefix!r}: add it to BUILT"
            wanted = {prefix + value for value in BUILT[prefix]}
            assert wanted - english == set(), f"English lacks {sorted(wanted - english)}"
            assert wanted - arabic == set(), f"Arabic lacks {sorted(wanted - arabic)}"
