"""Property-based fuzzing of the parsers: records, actions, cards and sets of cards.

Whatever the input, a reader either succeeds or raises its own error (``RecordError`` for a
record, ``ReplayError`` for an illegal action in it, ``NotationError`` for notation): never
another exception.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import sys
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from spec_example import ACTIONS as SPEC_ACTIONS
from spec_example import DECK

from baloot import Action, Card, CardSet, Claim, Hand, Rules, Seat, Verb
from baloot.cli import main
from baloot.core.cards import CARDS
from baloot.core.errors import NotationError, RecordError
from baloot.core.match import Match
from baloot.records.record import Record, loads
from baloot.records.replay import ReplayError, replay
from baloot.records.writer import dumps


def random_match_record(seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    match = Match.new(rng=rng, dealer=rng.choice(list(Seat)), rules=Rules.random(rng))
    stop = rng.randrange(50, 600)
    for _ in range(stop):
        if match.is_over:
            break
        match.apply(rng.choice(match.legal_actions()))
    data: dict[str, Any] = json.loads(dumps(Record.of(match, event=f"seed {seed}"), json=True))
    return data


BASES: list[dict[str, Any]] = [
    {
        "format": "baloot/1",
        "rules": "classic",
        "dealer": "E",
        "score_before": [0, 0],
        "deck": DECK,
        "actions": SPEC_ACTIONS,
    },
    {
        "format": "baloot/1",
        "rules": {"preset": "federation", "must_undertrump": True},
        "dealer": "E",
        "deck": DECK.split(),
        "actions": SPEC_ACTIONS[:20],
        "players": {"N": "Noura"},
        "x_note": "partial",
    },
    *(random_match_record(seed) for seed in range(3)),
]

# Pieces that mutations and generated text are made of: near misses of the real notation.
WORDS = [
    "N", "W", "S", "E", "n", "X", "pass", "hokum", "sun", "ashkal", "kawesh", "trump", "double",
    "triple", "four", "gahwa", "play", "declare", "open", "locked", "ekka", "baloot", "sira",
    "fifty", "hundred", "four-hundred", "sira:QhJhTh", "sira:", "fifty:AsKsQsJs", "h", "H", "♥",
    "♥\ufe0f", "As", "10h", "Th", "TH", "T♥", "jd", "Jd", "A♣\ufe0f", "??", "1h", "#", "# x",
    "Pass", "", "  ", "\t",
]  # fmt: skip
CHARS = "NWSEAKQJT98710shdcSHDC♠♥♦♣\ufe0f #:\"'[]{}=,\n\\x_-0"


def lists_and_tables(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner)


json_values: st.SearchStrategy[Any] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=8)
    | st.sampled_from(WORDS),
    lists_and_tables,
    max_leaves=6,
)


def check_record_text(text: str | bytes) -> None:
    """Read and replay ``text``: only the project's own errors may come out."""
    try:
        record = loads(text)
    except RecordError:
        return
    assert isinstance(record, Record)
    try:
        result = replay(record)
    except RecordError:
        return
    except ReplayError as error:
        hand = record.hands[error.hand - 1]
        assert 1 <= error.position <= len(hand.actions)
        assert hand.actions[error.position - 1] == error.text  # #40: the text as written
        assert error.text.split("#", 1)[0].strip(), "a blank action cannot be illegal (#39)"
        assert str(error).startswith(f'hand {error.hand}: action {error.position} "')
        return
    summary = result.to_json()
    json.dumps(summary)  # plain JSON values only
    for entry in summary["hands"]:  # type: ignore[attr-defined]
        if entry["outcome"] == "in progress":
            assert entry["legal"] == sorted(entry["legal"]) and entry["legal"]
    # a record that was read can be written and read back as the same record
    if not _has_float(record.metadata):
        assert loads(dumps(record, json=True)) == record


def _has_float(value: object) -> bool:
    if isinstance(value, float):
        return True
    if isinstance(value, dict):
        return any(_has_float(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_float(v) for v in value)
    return False


# ---------------------------------------------------------------------- loads on any input


@given(st.binary(max_size=300))
def test_random_bytes_into_loads(data: bytes) -> None:
    check_record_text(data)


@given(st.text(max_size=300))
def test_random_text_into_loads(text: str) -> None:
    check_record_text(text)


RECORD_TOKENS = [
    "format", "=", '"baloot/1"', "dealer", '"E"', '"N"', "deck", f'"{DECK}"', "actions", "[",
    "]", '"N pass"', '"W sun"', '"N play As"', ",", "{", "}", "[[hands]]", "[hands]", "rules",
    '"classic"', '"federation"', "must_undertrump", "true", "1", "2024-01-01", "score_before",
    "[0, 0]", "[160, 0]", "x_a", "event", ":", '"', "\n", " ", "#", "'", "\\", "hands", "preset",
]  # fmt: skip


@given(st.lists(st.sampled_from(RECORD_TOKENS), max_size=60), st.booleans())
def test_record_like_token_soup_into_loads(tokens: list[str], spaced: bool) -> None:
    check_record_text((" " if spaced else "").join(tokens))


@given(
    st.dictionaries(
        st.sampled_from(
            [
                "format",
                "dealer",
                "deck",
                "actions",
                "hands",
                "rules",
                "score_before",
                "event",
                "x_y",
                "other",
            ]
        ),
        json_values,
    )
)
def test_random_json_objects_into_loads(data: dict[str, Any]) -> None:
    check_record_text(json.dumps(data))


@pytest.mark.parametrize(
    "text",
    [
        "x_n = " + "1" * 5000,
        '{"format": "baloot/1", "x_n": ' + "1" * 5000 + "}",
        'format = "baloot/1"\ndealer = "E"\ndeck = "'
        + DECK
        + '"\nactions = []\nx_n = '
        + "9" * 4301,
    ],
)
def test_a_huge_integer_is_a_record_error(text: str) -> None:
    """A file that is not a record raises RecordError (exit 2, #44), even when the underlying
    parser gives up on an integer of more than 4300 digits."""
    with pytest.raises(RecordError):
        loads(text)


# ---------------------------------------------------------------------- mutated records


@st.composite
def mutated_records(draw: st.DrawFn) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(json.dumps(draw(st.sampled_from(BASES))))
    for _ in range(draw(st.integers(1, 4))):
        hands = data["hands"] if isinstance(data.get("hands"), list) else [data]
        if not hands:
            break
        target = draw(st.sampled_from(hands))
        if not isinstance(target, dict):
            continue
        kind = draw(
            st.sampled_from(
                ["drop", "duplicate", "swap", "char", "insert", "deck", "delete", "retype"]
            )
        )
        actions = target.get("actions")
        if kind in ("drop", "duplicate", "swap", "char", "insert"):
            if not isinstance(actions, list) or not actions:
                continue
            i = draw(st.integers(0, len(actions) - 1))
            j = draw(st.integers(0, len(actions) - 1))
            if kind == "drop":
                del actions[i]
            elif kind == "duplicate":
                actions.insert(i, actions[i])
            elif kind == "swap":
                actions[i], actions[j] = actions[j], actions[i]
            elif kind == "insert":
                words = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=4))
                actions.insert(i, " ".join(words))
            elif isinstance(actions[i], str) and actions[i]:
                text = actions[i]
                k = draw(st.integers(0, len(text) - 1))
                actions[i] = text[:k] + draw(st.sampled_from(CHARS)) + text[k + 1 :]
        elif kind == "deck":
            deck = target.get("deck")
            if isinstance(deck, str) and deck:
                k = draw(st.integers(0, len(deck) - 1))
                target["deck"] = deck[:k] + draw(st.sampled_from(CHARS)) + deck[k + 1 :]
            elif isinstance(deck, list) and deck:
                k = draw(st.integers(0, len(deck) - 1))
                deck[k] = draw(st.sampled_from([c.text for c in CARDS] + WORDS))
        else:
            owner = draw(st.sampled_from([data, target]))
            if not owner:
                continue
            key = draw(st.sampled_from(sorted(owner)))
            if kind == "delete":
                del owner[key]
            else:
                owner[key] = draw(json_values)
    return data


@given(mutated_records())
def test_mutated_records_replay_or_fail_cleanly(data: dict[str, Any]) -> None:
    check_record_text(json.dumps(data, ensure_ascii=False))


@given(st.sampled_from(BASES), st.data())
def test_mutated_toml_text_replays_or_fails_cleanly(
    base: dict[str, Any], data: st.DataObject
) -> None:
    text = dumps(loads(json.dumps(base)))
    lines = text.split("\n")
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(lines) - 1))
        kind = data.draw(st.sampled_from(["delete", "duplicate", "swap", "char"]))
        if kind == "delete" and len(lines) > 1:
            del lines[i]
        elif kind == "duplicate":
            lines.insert(i, lines[i])
        elif kind == "swap":
            j = data.draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif lines[i]:
            k = data.draw(st.integers(0, len(lines[i]) - 1))
            lines[i] = lines[i][:k] + data.draw(st.sampled_from(CHARS)) + lines[i][k + 1 :]
    check_record_text("\n".join(lines))


def test_the_unmutated_bases_replay() -> None:
    for base in BASES:
        replay(loads(json.dumps(base)))
        replay(loads(dumps(loads(json.dumps(base)))))


def run_main(args: list[str], stdin: str) -> tuple[int, str, str]:
    """The command line's ``main`` in this process, with ``stdin`` as standard input."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(args)
    finally:
        sys.stdin = saved
    return status, out.getvalue(), err.getvalue()


@given(st.integers(0, 2**32 - 1), st.integers(0, 600))
def test_any_random_record_prints_as_a_sheet_and_as_json(seed: int, stop: int) -> None:
    """In progress, annulled, doubled or won: every record that replays also prints."""
    rng = random.Random(seed)
    match = Match.new(rng=rng, dealer=rng.choice(list(Seat)), rules=Rules.random(rng))
    for _ in range(stop):
        if match.is_over:
            break
        match.apply(rng.choice(match.legal_actions()))
    text = dumps(Record.of(match))
    status, sheet, err = run_main(["replay", "-"], text)
    assert (status, err) == (0, "")
    ns, ew = match.totals
    assert f"NS {ns}, EW {ew}" in sheet.splitlines()[-1]
    assert sheet.count("Hand ") == len(match.hands)
    status, out, err = run_main(["replay", "-", "--json"], text)
    assert (status, err) == (0, "")
    assert json.loads(out) == replay(loads(text)).to_json()


# ---------------------------------------------------------------------- Action.parse


@given(st.text(max_size=40))
def test_random_text_into_action_parse(text: str) -> None:
    try:
        action = Action.parse(text)
    except NotationError:
        return
    assert isinstance(action, Action)
    assert Action.parse(str(action)) == action
    assert str(Action.parse(str(action))) == str(action)


@given(st.lists(st.sampled_from(WORDS) | st.text(alphabet=CHARS, max_size=4), max_size=6))
def test_action_like_words_into_action_parse(words: list[str]) -> None:
    text = " ".join(words)
    try:
        action = Action.parse(text)
    except NotationError:
        return
    assert Action.parse(str(action)) == action
    assert action.seat.name == text.split()[0]


@given(st.integers(0, 2**32 - 1), st.integers(0, 120))
def test_actions_of_random_games_round_trip(seed: int, limit: int) -> None:
    rng = random.Random(seed)
    hand = Hand.new(rng=rng, dealer=rng.choice(list(Seat)), rules=Rules.random(rng))
    seen = 0
    while not hand.is_over and seen < limit:
        legal = hand.legal_actions()
        for action in legal:
            text = str(action)
            assert Action.parse(text) == action, text
            assert hand.parse_action(text) == action, text
            if action.verb is Verb.PLAY:
                assert action.card is not None
                for ekka, baloot in ((True, False), (False, True), (True, True)):
                    variant = Action(action.seat, Verb.PLAY, action.card, ekka=ekka, baloot=baloot)
                    assert Action.parse(str(variant)) == variant
        seat = hand.to_act
        if seat is not None and hand.projects(seat):
            claims = tuple(Claim(p.kind, CardSet(p.mask)) for p in hand.projects(seat))
            declared = Action(seat, Verb.DECLARE, claims=claims)
            assert Action.parse(str(declared)) == declared, str(declared)
        hand.apply(rng.choice(legal))
        seen += 1


# ---------------------------------------------------------------------- cards and sets


def test_every_card_parses_from_its_spellings() -> None:
    for card in CARDS:
        assert Card.parse(card.text) is card
        assert Card.parse(card.pretty) is card
        assert Card.parse(card.pretty + "\ufe0f") is card
        assert Card.parse(card.text[0] + card.text[1].upper()) is card
        assert str(card) == card.text and len(card.text) == 2


@given(st.text(max_size=6))
def test_random_text_into_card_parse(text: str) -> None:
    try:
        card = Card.parse(text)
    except NotationError:
        return
    assert Card.parse(card.text) is card
    assert text.removesuffix("\ufe0f")[-1].lower() in card.suit.letter + card.suit.symbol


@given(st.integers(0, 2**32 - 1))
def test_cardset_round_trip(mask: int) -> None:
    cards = CardSet(mask)
    text = str(cards)
    assert CardSet.parse(text) == cards
    assert len(text.split()) == len(cards) == mask.bit_count()
    assert all(Card.parse(w).text == w for w in text.split())


@given(st.integers(0, 2**32 - 1), st.randoms(use_true_random=False))
def test_cardset_parses_any_spelling_in_any_order(mask: int, rng: random.Random) -> None:
    cards = CardSet(mask)
    words = []
    for card in cards:
        rank = "10" if card.text[0] == "T" and rng.random() < 0.5 else card.text[0]
        suit = rng.choice([card.suit.letter, card.suit.letter.upper(), card.suit.symbol])
        words.append(
            rank + suit + ("\ufe0f" if suit == card.suit.symbol and rng.random() < 0.5 else "")
        )
    rng.shuffle(words)
    text = "".join(w + rng.choice([" ", "  ", "\t", "\n"]) for w in words)
    assert CardSet.parse(text) == cards
    if words:
        with pytest.raises(NotationError):
            CardSet.parse(text + " " + words[0])  # a repeated card


@given(st.text(max_size=40))
def test_random_text_into_cardset_parse(text: str) -> None:
    try:
        cards = CardSet.parse(text)
    except NotationError:
        return
    assert len(cards) == len(text.split())
    assert CardSet.parse(str(cards)) == cards
