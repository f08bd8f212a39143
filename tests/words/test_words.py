"""The words a web page asks for: score sheets and hints from their JSON, in English and
Arabic, the same as the terminal's; and anything else a browser might send refused with a
one-line ValueError."""

from __future__ import annotations

import functools
import json
import random
import re
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baloot.bots import HeuristicBot, RandomBot
from baloot.bots.heuristic import HINT_KEYS, Hint, HintReason
from baloot.core.actions import Verb
from baloot.core.hand import Hand
from baloot.core.rules import Rules
from baloot.core.seats import Seat
from baloot.table.players import Bot
from baloot.view.seat_view import SeatView
from baloot.view.sheet import PARAMS, SheetKey, SheetLine, explain, from_json, to_json
from baloot.words import LANGUAGES, hint_lines, hint_texts, sheet_texts, strings
from baloot.words.hints import PARAM_CHECKS, reason_from_json
from baloot.words.sheet import sheet_text

ARABIC = re.compile("[\u0600-\u06ff]")


def played_hands(count: int) -> list[Hand]:
    """Hands played to their end under random rules: half by heuristic bots (contracts that
    get doubled, projects, Baloot), half by random ones (Kawesh, Kaboot); in every tenth the
    seats pass whenever they may (annulled hands)."""
    hands = []
    for seed in range(count):
        rng = random.Random(seed)
        hand = Hand.new(rng=rng, dealer=rng.choice(list(Seat)), rules=Rules.random(rng))
        bot: Bot = HeuristicBot(rng) if seed % 2 else RandomBot(rng)
        while not hand.is_over:
            seat = hand.to_act
            assert seat is not None
            legal = hand.legal_actions()
            passes = [action for action in legal if action.verb is Verb.PASS]
            if seed % 10 == 0 and passes:
                action = passes[0]
            else:
                action = bot.choose(SeatView.of(hand, seat), legal)
            hand.apply(hand.announced(action))
        hands.append(hand)
    return hands


@functools.cache
def hands() -> list[Hand]:
    """Sixty played hands, played once in a process that runs these tests (not at import,
    which every worker of a run does)."""
    return played_hands(60)


def through_the_wire(data: Any) -> Any:
    """What a browser sends back: the JSON text, read again."""
    return json.loads(json.dumps(data))


# --------------------------------------------------------------------------- sheets


def test_real_sheets_round_trip_and_are_worded_as_in_the_terminal() -> None:
    seen: Counter[SheetKey] = Counter()
    for hand in hands():
        lines = explain(hand.result(), hand.rules)
        data = through_the_wire(to_json(lines))
        assert from_json(data) == lines
        for lang in LANGUAGES:
            texts = sheet_texts(data, lang)
            assert texts == [sheet_text(line, strings(lang)) for line in lines]
            assert all(text and "{" not in text for text in texts)
        seen.update(line.key for line in lines)
    # the hands cover the sheet well: played and annulled, projects, doubled or not
    assert {
        SheetKey.ANNULLED,
        SheetKey.CONTRACT,
        SheetKey.COUNTING_TEAM,
        SheetKey.PROJECTS,
        SheetKey.NO_PROJECTS,
        SheetKey.DECISION,
        SheetKey.WRITTEN,
    } <= seen.keys()


def test_every_sheet_key_has_its_parameters_checked() -> None:
    assert PARAMS.keys() == set(SheetKey)
    for hand in hands():
        for line in explain(hand.result(), hand.rules):
            assert list(line.params) == list(PARAMS[line.key])  # in the order explain writes


def test_a_sheet_in_arabic_and_in_english() -> None:
    hand = next(h for h in hands() if len(explain(h.result(), h.rules)) > 5)
    data = through_the_wire(to_json(explain(hand.result(), hand.rules)))
    english, arabic = sheet_texts(data, "en"), sheet_texts(data, "ar")
    assert len(english) == len(arabic) == len(data)
    assert not any(ARABIC.search(text) for text in english)
    assert all(ARABIC.search(text) for text in arabic)
    assert english[0].startswith("contract: ") and arabic[0].startswith("اللعب: ")


TRICKS = {"key": "tricks", "params": {"NS": 6, "EW": 2}}
CONTRACT = {
    "key": "contract",
    "params": {
        "kind": "hokum",
        "trump": "d",
        "declarer": "S",
        "team": "NS",
        "level": 1,
        "locked": False,
    },
}
PROJECTS = {
    "key": "projects",
    "params": {"team": "NS", "seats": ["N"], "kinds": ["sira"], "cards": ["Ah Kh Qh"], "points": 2},
}


def changed(line: dict[str, Any], **params: Any) -> dict[str, Any]:
    return {"key": line["key"], "params": {**line["params"], **params}}


@pytest.mark.parametrize(
    ("sheet", "message"),
    [
        ({"key": "tricks"}, "a sheet must be a list of lines"),
        ("tricks", "a sheet must be a list of lines"),
        (["tricks"], 'sheet line 1: a sheet line must be {"key": ..., "params": {...}}'),
        ([{"key": "tricks", "params": {}, "more": 1}], "a sheet line must be"),
        ([{"params": {}}], "a sheet line must be"),
        ([TRICKS, {"key": "trick", "params": {}}], 'sheet line 2: unknown sheet key "trick"'),
        ([{"key": 5, "params": {}}], "unknown sheet key 5"),
        ([{"key": ["tricks"], "params": {}}], 'unknown sheet key ["tricks"]'),
        ([{"key": None, "params": {}}], "unknown sheet key null"),
        ([{"key": "tricks", "params": [6, 2]}], "tricks: params must be an object, not [6, 2]"),
        ([{"key": "tricks", "params": {"NS": 6}}], "tricks: missing params EW"),
        ([changed(TRICKS, extra=1)], 'tricks: unknown params "extra"'),
        ([changed(TRICKS, EW="2")], 'tricks: EW must be a whole number from 0, not "2"'),
        ([changed(TRICKS, EW=True)], "tricks: EW must be a whole number from 0, not true"),
        ([changed(TRICKS, EW=-1)], "EW must be a whole number from 0, not -1"),
        ([changed(TRICKS, EW=2.5)], "EW must be a whole number from 0, not 2.5"),
        ([changed(TRICKS, EW=None)], "EW must be a whole number from 0, not null"),
        ([changed(CONTRACT, level=7)], 'contract: level must be 1, 2, 3, 4 or "gahwa", not 7'),
        ([changed(CONTRACT, level=True)], "level must be 1, 2, 3, 4 or"),
        ([changed(CONTRACT, trump="x")], "trump must be a suit letter (s, h, d or c) or null"),
        ([changed(CONTRACT, declarer="South")], 'declarer must be a seat (N, W, S or E), not "So'),
        ([changed(CONTRACT, team="ns")], "team must be a team (NS or EW)"),
        ([changed(CONTRACT, locked=0)], "locked must be true or false, not 0"),
        ([changed(CONTRACT, kind="no-trumps")], 'kind must be "hokum" or "sun", not "no-trumps"'),
        ([changed(PROJECTS, kinds=["sirra"])], 'kinds must be a list, each "sira", "fifty"'),
        ([changed(PROJECTS, kinds="sira")], "kinds must be a list"),
        ([changed(PROJECTS, cards=["Ah Kh Q"])], "cards must be a list, each cards as texts"),
        ([changed(PROJECTS, cards=["Ah  Kh Qh"])], "cards must be a list"),
        ([changed(PROJECTS, cards=["10h Kh Qh"])], "cards must be a list"),
        ([changed(PROJECTS, seats=["N", "S"])], "projects: seats, kinds and cards must be lists"),
        ([changed(TRICKS, EW="x" * 500)], 'EW must be a whole number from 0, not "xxxxx'),
    ],
)
def test_a_wrong_sheet_is_a_one_line_value_error(sheet: Any, message: str) -> None:
    for lang in LANGUAGES:
        with pytest.raises(ValueError) as caught:
            sheet_texts(sheet, lang)
        text = str(caught.value)
        assert message in text
        assert "\n" not in text and len(text) < 200


@pytest.mark.parametrize("lang", ["fr", "EN", "", None, 1, ["en"], "ar\n" * 100])
def test_an_unknown_language_is_a_one_line_value_error(lang: Any) -> None:
    for call in (sheet_texts, hint_texts):
        with pytest.raises(ValueError, match=r"^unknown language .*: en or ar$") as caught:
            call([], lang)
        assert "\n" not in str(caught.value) and len(str(caught.value)) < 80


def test_an_empty_sheet_or_hint_has_no_lines() -> None:
    assert sheet_texts([], "ar") == [] and hint_texts([], "en") == []


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 200) | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_anything_sent_back_is_worded_or_refused_with_a_value_error(data: st.DataObject) -> None:
    """A real sheet or hint with one value replaced by any JSON: worded, or a ValueError."""
    hand = data.draw(st.sampled_from(hands()))
    sheet = to_json(explain(hand.result(), hand.rules))
    line = data.draw(st.sampled_from(sheet))
    params = line["params"]
    assert isinstance(params, dict)
    if params:
        name = data.draw(st.sampled_from(sorted(params)))
        params[name] = data.draw(JSON)
    else:
        line["params"] = data.draw(JSON)
    why = data.draw(st.sampled_from(real_reasons())).to_json()
    if why["params"]:
        why["params"][data.draw(st.sampled_from(sorted(why["params"])))] = data.draw(JSON)
    for call, sent in ((sheet_texts, sheet), (hint_texts, [why])):
        try:
            texts = call(sent, data.draw(st.sampled_from(LANGUAGES)))
        except ValueError as error:
            assert "\n" not in str(error)
        else:
            assert all(isinstance(text, str) for text in texts)


@settings(max_examples=200, deadline=None)
@given(JSON)
def test_any_json_at_all_is_worded_or_refused_with_a_value_error(sent: Any) -> None:
    for call in (sheet_texts, hint_texts):
        for item in (sent, [sent]):
            try:
                call(item, "en")
            except ValueError as error:
                assert "\n" not in str(error)


# --------------------------------------------------------------------------- hints


def hints_along(hand: Hand) -> list[Hint]:
    """The heuristic bot's hint at every decision of a hand replayed from the start."""
    replayed = Hand.from_deck(hand.deck, dealer=hand.dealer, rules=hand.rules)
    bot = HeuristicBot(random.Random(0))
    hints = []
    for action in hand.actions:
        seat = replayed.to_act
        assert seat is not None
        hints.append(bot.explain(SeatView.of(replayed, seat), replayed.legal_actions()))
        replayed.apply(action)
    return hints


@functools.cache
def real_reasons() -> list[HintReason]:
    """One reason of every kind the bot gave along the first hands, with its parameters."""
    by_key = {
        reason.key: reason for hand in hands()[:20] for h in hints_along(hand) for reason in h.why
    }
    return [by_key[key] for key in sorted(by_key)]


def test_real_hints_round_trip_and_are_worded_as_in_the_terminal() -> None:
    seen: Counter[str] = Counter()
    for hand in hands()[:30]:
        for hint in hints_along(hand):
            why = through_the_wire(hint.to_json()["why"])
            assert [reason_from_json(item) for item in why] == list(hint.why)
            for lang in LANGUAGES:
                assert hint_texts(why, lang) == hint_lines(hint, lang)
            seen.update(reason.key for reason in hint.why)
    assert len(seen) > 20  # bidding, doubling, play and forced reasons alike
    assert any(key.startswith("B") for key in seen) and any(k.startswith("P") for k in seen)


def test_every_hint_parameter_has_a_check_or_is_a_number() -> None:
    names = {name for params in HINT_KEYS.values() for name in params}
    numbers = names - PARAM_CHECKS.keys()
    assert PARAM_CHECKS.keys() <= names
    assert numbers == {
        "aces",
        "gain",
        "hokum",
        "hokum_need",
        "need",
        "points",
        "sun",
        "sun_need",
        "trumps",
        "value",
    }


def test_a_hint_in_arabic_and_in_english() -> None:
    why = [
        {"key": "P4_lead_for_ruff", "params": {"card": "7d", "seat": "S", "suit": "d"}},
        {"key": "B3_sun", "params": {"value": "8.5", "need": "7"}},
    ]
    english, arabic = hint_texts(why, "en"), hint_texts(why, "ar")
    assert english[0] == "Lead 7♦: your partner S has shown no ♦ diamonds and may still trump it."
    assert arabic[0] == "ابدأ بـ7♦: شريكك جنوب قاطع ♦ ديمن وقد يقطعها بالحكم."
    assert "8.5" in english[1] and "8.5" in arabic[1] and ARABIC.search(arabic[1])


LOW: dict[str, Any] = {"key": "P6_play_low", "params": {"card": "7s", "seat": "N"}}


def low(**params: Any) -> dict[str, Any]:
    return changed(LOW, **params)


@pytest.mark.parametrize(
    ("why", "message"),
    [
        (LOW, "a hint's why must be a list of reasons"),
        ("P6_play_low", "a hint's why must be a list of reasons"),
        ([LOW, "P6_play_low"], 'hint reason 2: a hint reason must be {"key": ..., "params"'),
        ([{"key": "P6_play_low"}], "a hint reason must be"),
        ([{**LOW, "seat": "N"}], "a hint reason must be"),
        ([{"key": "P6_play_higher", "params": {}}], 'unknown hint key "P6_play_higher"'),
        ([{"key": 6, "params": {}}], "unknown hint key 6"),
        ([{"key": ["default"], "params": {}}], 'unknown hint key ["default"]'),
        ([{"key": "P6_play_low", "params": ["7s", "N"]}], "P6_play_low: params must be an object"),
        ([{"key": "P6_play_low", "params": {"card": "7s"}}], "P6_play_low: missing params seat"),
        ([low(why="x")], 'P6_play_low: unknown params "why"'),
        ([low(seat="north")], 'seat must be a seat (N, W, S or E), not "north"'),
        ([low(seat=0)], "seat must be a seat (N, W, S or E), not 0"),
        ([low(card="7")], 'card must be a card text like Qh, not "7"'),
        ([low(card="10s")], "card must be a card text like Qh"),
        ([low(card=None)], "card must be a card text like Qh, not null"),
        (
            [{"key": "P8_discard", "params": {"card": "7s", "suit": "hearts"}}],
            'P8_discard: suit must be a suit letter (s, h, d or c), not "hearts"',
        ),
        (
            [{"key": "P9_keep_baloot", "params": {"cards": "Kh Qx"}}],
            "cards must be card texts like Qh, separated by spaces",
        ),
        (
            [{"key": "P1_declare", "params": {"projects": "sira fourty"}}],
            "projects must be project words like sira, separated by spaces",
        ),
        (
            [{"key": "forced_action", "params": {"action": "S fly"}}],
            'action must be an action in record notation like S pass, not "S fly"',
        ),
        (
            [{"key": "B3_sun", "params": {"value": "eight", "need": "7"}}],
            'B3_sun: value must be a number like 7 or 8.5, not "eight"',
        ),
        (
            [{"key": "B3_sun", "params": {"value": 8.5, "need": "7"}}],
            "B3_sun: value must be a number like 7 or 8.5, not 8.5",
        ),
    ],
)
def test_a_wrong_hint_is_a_one_line_value_error(why: Any, message: str) -> None:
    for lang in LANGUAGES:
        with pytest.raises(ValueError) as caught:
            hint_texts(why, lang)
        text = str(caught.value)
        assert message in text
        assert "\n" not in text and len(text) < 200


def test_the_sheet_lines_read_back_are_the_lines() -> None:
    line = SheetLine(SheetKey.DECLARED_NOT_SCORED, {"seat": "E", "team": "EW", "kinds": ("sira",)})
    assert SheetLine.from_json(through_the_wire(line.to_json())) == line


def test_a_reason_uses_the_games_words_and_speaks_to_its_seat() -> None:
    from baloot.core.reasons import Reason, ReasonCode
    from baloot.core.seats import Seat
    from baloot.words.strings import strings

    not_held = Reason(ReasonCode.NOT_HELD, {"seat": "W", "card": "Th"})
    assert strings("en").rule(not_held, Seat.S) == "W does not hold 10♥"
    assert strings("en").rule(Reason(ReasonCode.NOT_HELD, {"seat": "S", "card": "Th"}), Seat.S) == (
        "you do not hold 10♥"
    )
    assert strings("ar")("sheet_gahwa", team="EW") == "قهوة: شرق-غرب فاز بالجولة وبالمباراة معها"
