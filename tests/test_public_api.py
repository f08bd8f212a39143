"""The public API as docs/api.md promises it: what imports from ``baloot``, which error for
what, ``check`` as the verify half of ``apply``, wrong argument types refused at once, seats
and teams always true, and the layers of the package (core < records < view < table <
tournaments < bots < rl < analysis and words < cli and server, the core on the standard library
alone)."""

from __future__ import annotations

import ast
import functools
import io
import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import whole_hands
from hypothesis import given
from hypothesis import strategies as st
from spec_example import ACTIONS, DECK

import baloot
from baloot import (
    Action,
    BalootError,
    Claim,
    ContractKind,
    DecidedBy,
    Hand,
    IllegalActionError,
    Level,
    Match,
    NotationError,
    Outcome,
    Phase,
    ProjectKind,
    QuestionKind,
    Reason,
    Record,
    RecordError,
    ReplayError,
    Rounding,
    Rules,
    RulesError,
    Seat,
    SeatView,
    Team,
    Verb,
    dump,
    dumps,
    load,
    loads,
    replay,
)
from baloot.core.cards import CARDS, CardSet
from baloot.core.position import Position

SRC = Path(baloot.__file__).resolve().parent
ORDERED = " ".join(c.text for c in CARDS)


# --------------------------------------------------------------------------- (a) one import


def test_everything_needed_imports_from_baloot() -> None:
    """docs/api.md: "Everything below is imported from ``baloot`` alone"."""
    for name in (
        "Phase", "ContractKind", "Level", "QuestionKind", "Outcome", "DecidedBy", "Rounding",
        "Match", "Hand", "SeatView", "Record", "load", "loads", "dump", "dumps", "replay",
        "BalootError", "NotationError", "IllegalActionError", "RecordError", "RulesError",
        "ReplayError", "Action", "Claim", "Verb", "Card", "CardSet", "Suit", "Rank", "Seat",
        "Team", "Rules", "Project", "ProjectKind", "Contract", "Question", "Trick",
        "ShownProject", "HandResult", "HandScore", "Reason", "ReasonCode", "Replay", "TARGET",
        "FirstLead", "AshkalMode", "SunDoubleRule", "BalootOnLoss", "ProjectMultiplier",
        "DoubledExactTie", "KabootProjects", "WinComparison", "TrickWord",
    ):  # fmt: skip
        assert name in baloot.__all__, name
        assert getattr(baloot, name) is not None, name
    for name in baloot.__all__:
        assert hasattr(baloot, name), f"__all__ names {name}, which baloot lacks"
    for error in (NotationError, IllegalActionError, RecordError, RulesError, ReplayError):
        assert issubclass(error, BalootError)
        assert error.__module__ == "baloot", "errors print as baloot.X, where they import from"
    assert issubclass(ReplayError, IllegalActionError)
    assert {p.value for p in Phase} >= {"bidding-1", "playing", "over"}
    assert {k.value for k in ContractKind} == {"hokum", "sun"}
    assert [level.json for level in Level] == [1, 2, 3, 4, "gahwa"]
    assert len(QuestionKind) == 12
    assert {o.value for o in Outcome} == {"played", "annulled", "in progress"}
    assert DecidedBy.GAME_POINTS.value == "game-points" and Rounding.SUN.value == "sun"
    assert callable(load) and callable(dump)


def test_the_readme_round_trip_through_the_top_level_names() -> None:
    hand = Hand.from_deck(DECK, dealer="E")
    for text in ACTIONS:
        hand.apply(text)
    text = dumps(Record.of(hand))
    assert replay(loads(text)).to_json()["hands"][0]["score"] == {"NS": 15, "EW": 3}  # type: ignore[index]
    out = io.StringIO()
    dump(Record.of(hand), out)
    assert load(io.StringIO(out.getvalue())) == loads(text)
    assert SeatView.of(hand, "E").to_json()["phase"] == "over"


# --------------------------------------------------------------------------- (b) check and apply


def observable(hand: Hand) -> tuple[object, ...]:
    """Everything the public API shows of a hand."""
    return (
        [str(a) for a in hand.actions],
        hand.phase,
        hand.to_act,
        hand.is_over,
        hand.question,
        hand.contract,
        hand.taker,
        hand.dealer,
        hand.exposed,
        hand.deck,
        hand.score_before,
        tuple(hand.hand(s) for s in Seat),
        tuple(hand.full_hand(s) for s in Seat),
        tuple(hand.declared(s) for s in Seat),
        tuple(hand.projects(s) for s in Seat),
        hand.legal_actions(),
        hand.play_restriction(),
        hand.tricks(),
        hand.trick_number,
        hand.current_trick,
        hand.tricks_won,
        hand.card_points(),
        hand.played(),
        hand.shown_projects(),
        hand.bidding(),
        hand.doubling(),
        hand.bidding_length,
        hand.round_two_start,
        hand.result(),
        hand.next_dealer,
        repr(hand),
    )


def outcome(call: Any, action: Action | str) -> tuple[object, ...]:
    """What ``call(action)`` did: the action it returned, or the error it raised."""
    try:
        return ("returned", str(call(action)))
    except BalootError as error:
        return (
            type(error),
            str(error),
            getattr(error, "code", None),
            getattr(error, "params", None),
        )


MALFORMED = [
    "", "   ", "# only a comment", "X pass", "n pass", "N", "N fly", "N play", "N play Zz",
    "N play As ekka ekka", "N play As wow", "N trump", "N trump x", "N trump s h",
    "N double sideways", "N four", "N pass now", "N declare", "N declare sira:AsAs",
    "N declare nothing", "N declare sira:", "N hokum s",
]  # fmt: skip
WORDS = [
    "pass", "hokum", "sun", "ashkal", "kawesh", "trump s", "trump h", "double", "double open",
    "double locked", "triple", "four open", "four locked", "gahwa", "declare sira",
    "declare fifty", "declare hundred", "declare four-hundred", "declare sira sira",
    "declare sira fifty hundred", "declare sira:AsKsQs",
]  # fmt: skip


def candidates(hand: Hand, rng: random.Random) -> list[Action | str]:
    """A sample of actions, as text and as values: three near the legal ones (the legal
    actions, the seat to act playing its own cards with or without Ekka and Baloot,
    declarations naming real projects) and three anything else."""
    near: list[Action | str] = [*hand.legal_actions(), *(str(a) for a in hand.legal_actions())]
    seat = hand.to_act
    if seat is not None:
        for card in hand.hand(seat):
            extra = rng.choice(["", " ekka", " baloot", " ekka baloot"])
            near.append(f"{seat.name} play {card.text}{extra}")
    for holder in Seat:
        for project in hand.projects(holder):
            near.append(f"{(seat or holder).name} declare {project}")
    far: list[Action | str] = []
    for other in Seat:
        far += [f"{other.name} {w}" for w in rng.sample(WORDS, 4)]
        for card in rng.sample(CARDS, 3):
            extra = rng.choice(["", " ekka", " baloot", " ekka baloot"])
            far.append(f"{other.name} play {card.text}{extra}")
            far.append(Action(other, Verb.PLAY, card=card, ekka=bool(extra)))
        far += [Action(other, Verb.DECLARE, claims=(Claim(kind),)) for kind in ProjectKind]
        far += [m.replace("N ", f"{other.name} ", 1) for m in rng.sample(MALFORMED, 4)]
    return rng.sample(near, min(len(near), 3)) + rng.sample(far, 3)


def check_restriction(hand: Hand) -> None:
    """``play_restriction()`` is None when every held card may be played, else the reason
    that ``check`` gives for one of the refused cards (the engine's own word for it)."""
    restriction = hand.play_restriction()
    seat = hand.to_act
    if hand.phase is not Phase.PLAYING or seat is None:
        assert restriction is None
        return
    legal = {a.card for a in hand.legal_actions() if a.card is not None}
    refused = [c for c in hand.hand(seat) if c not in legal]
    if not refused:
        assert restriction is None
        return
    assert restriction is not None, f"{seat} may not play {refused} but no reason is given"
    reasons = []
    for card in refused:
        with pytest.raises(IllegalActionError) as info:
            hand.check(f"{seat.name} play {card.text}")
        reasons.append((info.value.code, info.value.params))
    assert (restriction.code, dict(restriction.params)) in reasons
    assert restriction.text.startswith(seat.name + " ")


@whole_hands()
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_check_raises_what_apply_raises_and_changes_nothing(seed: int) -> None:
    rng = random.Random(seed)
    hand = Hand.new(rng=rng, dealer=rng.choice(list(Seat)), rules=Rules.random(rng))
    while True:
        before = observable(hand)
        for action in candidates(hand, rng):
            checked = outcome(hand.check, action)
            assert observable(hand) == before, f"check({action!r}) changed the hand"
            other = hand.copy()
            applied = outcome(other.apply, action)
            assert checked == applied, f"{action!r}: check {checked} but apply {applied}"
            if applied[0] != "returned":
                assert observable(other) == before, f"a refused apply({action!r}) changed it"
            else:
                assert [str(a) for a in other.actions] == [*before[0], applied[1]]  # type: ignore[misc]
        check_restriction(hand)
        if hand.is_over:
            break
        hand.apply(rng.choice(hand.legal_actions()))


# --------------------------------------------------------------------------- (c) which error


@pytest.mark.parametrize("text", ["", "   ", "X pass", "N fly", "N play", "N trump", "N"])
def test_text_that_is_no_action_is_a_notation_error(text: str) -> None:
    hand = Hand.from_deck(ORDERED, dealer="E")
    for call in (hand.apply, hand.check, hand.parse_action):
        with pytest.raises(NotationError):
            call(text)
    assert not hand.actions


@pytest.mark.parametrize(
    "text", ["", "  # only a comment", "X pass", "N fly", "N play", "N", "N # pass", "N sun x"]
)
def test_the_hand_reads_an_action_as_action_parse_does(text: str) -> None:
    hand = Hand.from_deck(ORDERED, dealer="E")
    with pytest.raises(NotationError) as alone:
        Action.parse(text)
    with pytest.raises(NotationError) as in_hand:
        hand.parse_action(text)
    assert str(in_hand.value) == str(alone.value)


@pytest.mark.parametrize("text", ["W fly", "W play", "W play Zz", "W", "S declare nonsense"])
def test_the_wrong_seat_is_told_it_is_not_its_turn_whatever_follows(text: str) -> None:
    """#39: the seat is read and checked first."""
    hand = Hand.from_deck(ORDERED, dealer="E")
    for call in (hand.apply, hand.check, hand.parse_action):
        with pytest.raises(IllegalActionError) as info:
            call(text)
        assert info.value.code == "not_your_turn"
        assert info.value.params == {"seat": "N"}
        assert not isinstance(info.value, NotationError)


@pytest.mark.parametrize("text", ["N pass", "E play 7h", "W fly", "S"])
def test_after_the_hand_is_over_every_action_is_hand_over(text: str) -> None:
    hand = Hand.from_deck(DECK, dealer="E")
    for action in ACTIONS:
        hand.apply(action)
    assert hand.is_over
    for call in (hand.apply, hand.check):
        with pytest.raises(IllegalActionError) as info:
            call(text)
        assert info.value.code == "hand_over"
    with pytest.raises(IllegalActionError) as value_error:
        hand.apply(Action.parse("N pass"))
    assert value_error.value.code == "hand_over"


@pytest.mark.parametrize(
    ("text", "code"),
    [("S fly", "bad_notation"), ("S play", "bad_notation"), ("", None), ("W fly", "not_your_turn")],
)
def test_replay_turns_bad_notation_into_an_illegal_action(
    text: str, code: str | None, tmp_path: Path
) -> None:
    """#39: in a record, text that is no action is an illegal action, located; the command
    line exits with 1 for it, as for any illegal action."""
    record = loads(dumps(Record.of(Hand.from_deck(DECK, dealer="E"))))
    record.hands[0].actions = [*ACTIONS[:12], text, *ACTIONS[12:]]
    if code is None:  # an empty string is no action at all: skipped
        assert replay(record).hands[0].is_over
        return
    with pytest.raises(ReplayError) as info:
        replay(record)
    error = info.value
    assert isinstance(error, IllegalActionError)
    assert (error.hand, error.position, error.text, error.code) == (1, 13, text, code)
    assert error.to_json()["error"]["action"] == 13  # type: ignore[index]
    from baloot.cli import main

    path = tmp_path / "bad.baloot"
    path.write_text(dumps(record), encoding="utf-8")
    assert main(["replay", str(path), "--json"]) == 1
    assert main(["validate", str(path)]) == 1


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("S fly", "unknown verb 'fly'"),
        ("S fly: now", "unknown verb 'fly:'"),
        ("S play Jd baloot: yes", "after the card only ekka and baloot may follow"),
        ("S play Zz", "unknown card 'Zz'"),
        ("Z: pass", "unknown seat 'Z:'"),
        ("S play Kh", "S does not hold Kh"),
        ("W play Kh", "it is S's turn"),
    ],
)
def test_a_replay_error_gives_the_reason_alone_and_its_code_words_it(
    text: str, reason: str
) -> None:
    """The located error's ``reason`` is the reason alone, whatever the action's text holds
    (a ``: `` in it included), and ``code`` with ``params`` word the same reason, as for
    every illegal action (``bad_notation``'s template is ``{message}``)."""
    record = loads(dumps(Record.of(Hand.from_deck(DECK, dealer="E"))))
    record.hands[0].actions = [*ACTIONS[:12], text]
    with pytest.raises(ReplayError) as info:
        replay(record)
    error = info.value
    assert error.reason == reason
    assert error.to_json()["error"] == {"hand": 1, "action": 13, "text": text, "reason": reason}
    assert str(error) == f'hand 1: action 13 "{text}": {reason}'
    assert error.code is not None
    assert Reason(error.code, error.params).text == reason
    from baloot.words.strings import strings

    worded = strings("ar").reason(error)  # the terminal words a reason from code and params
    assert worded and (reason in worded or error.code != "bad_notation")


# --------------------------------------------------------------------------- (d) wrong types


class CountingRandom(random.Random):
    """A generator that counts its shuffles."""

    shuffles = 0

    def shuffle(self, x: Any) -> None:
        self.shuffles += 1
        super().shuffle(x)


def test_wrong_argument_types_are_type_errors() -> None:
    hand = Hand.from_deck(ORDERED, dealer="E")
    with pytest.raises(TypeError):
        hand.apply(5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        hand.check(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        hand.parse_action(b"N pass")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        SeatView.of(hand, 3)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        SeatView.of(hand, 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Match.new(dealer=4)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Match.new(rules="classic")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Hand.from_deck(ORDERED, dealer=0)  # type: ignore[arg-type]
    assert not hand.actions


_SIRA = Claim(ProjectKind.SIRA)


@pytest.mark.parametrize(
    ("kind", "args", "field"),
    [
        (Action, (0, Verb.PASS), "an action's seat"),
        (Action, ("N", Verb.PASS), "an action's seat"),
        (Action, (Seat.N, "pass"), "an action's verb"),
        (Action, (Seat.N, Verb.PLAY, "As"), "an action's card"),
        (Action, (Seat.N, Verb.PLAY, CARDS[0].index), "an action's card"),
        (Action, (Seat.N, Verb.TRUMP, None, "h"), "an action's suit"),
        (Action, (Seat.N, Verb.TRUMP, None, 1), "an action's suit"),
        (Action, (Seat.N, Verb.DECLARE, None, None, None, False, False, [_SIRA]), "claims"),
        (Action, (Seat.N, Verb.DECLARE, None, None, None, False, False, ("sira",)), "claims"),
        (Claim, ("sira",), "a claim's kind"),
        (Claim, (ProjectKind.SIRA, "QhJhTh"), "a claim's cards"),
    ],
)
def test_a_field_of_the_wrong_type_is_a_one_line_type_error(
    kind: Any, args: tuple[Any, ...], field: str
) -> None:
    # Before, these built and Hand.apply or str() failed later with an AttributeError.
    with pytest.raises(TypeError) as caught:
        kind(*args)
    message = str(caught.value)
    assert field in message.split(" must be ")[0]
    assert "\n" not in message


def test_actions_of_the_right_types_still_build_and_apply() -> None:
    hand = Hand.from_deck(ORDERED, dealer="E")
    assert hand.apply(Action(Seat.N, Verb.SUN)) == Action.parse("N sun")
    claim = Claim(ProjectKind.SIRA, CardSet.parse("Qh Jh Th"))
    assert str(Action(Seat.N, Verb.DECLARE, claims=(claim,))) == "N declare sira:QhJhTh"


@pytest.mark.parametrize(
    "arguments",
    [{"dealer": 4}, {"dealer": None}, {"rules": "classic"}, {"score_before": "0 0"}],
)
def test_hand_new_refuses_wrong_types_before_shuffling(arguments: dict[str, Any]) -> None:
    rng = CountingRandom(1)
    with pytest.raises(TypeError):
        Hand.new(rng=rng, **arguments)
    assert rng.shuffles == 0
    Hand.new(rng=rng)
    assert rng.shuffles == 1


@pytest.mark.parametrize(
    ("arguments", "error"),
    [
        ({"score_before": (-1, 0)}, ValueError),
        ({"score_before": ("0", "0")}, TypeError),
        ({"score_before": (1.5, 0)}, TypeError),
        ({"rules": "classic"}, TypeError),
        ({"rng": 7}, TypeError),
    ],
)
def test_a_match_checks_its_arguments_as_a_hand_does(
    arguments: dict[str, Any], error: type[Exception]
) -> None:
    with pytest.raises(error) as from_match:
        Match(**arguments)
    with pytest.raises(error) as from_hand:
        Hand.new(**arguments)
    assert str(from_match.value) == str(from_hand.value)


def test_match_new_refuses_a_wrong_dealer_before_dealing() -> None:
    rng = CountingRandom(1)
    with pytest.raises(TypeError):
        Match.new(rng=rng, dealer=4)  # type: ignore[arg-type]
    assert rng.shuffles == 0


# --------------------------------------------------------------------------- (e) always true


def test_seats_and_teams_are_always_true() -> None:
    assert bool(Seat.N) and bool(Team.NS)
    assert all(Seat) and all(Team)
    assert int(Seat.N) == 0 and int(Team.NS) == 0


def north_bid_second_round_hokum() -> Hand:
    """W is asked about N's second-round Hokum: all passed round 1, then N said Hokum."""
    hand = Hand.from_deck(ORDERED, dealer="E")
    for call in ("N pass", "W pass", "S pass", "E pass", "N hokum"):
        hand.apply(call)
    return hand


def test_a_question_about_north_is_about_someone() -> None:
    """The old bug: ``baloot play --seed 11`` printed "? called a second-round Hokum" when the
    question was about North, because ``if question.about`` read Seat.N as false."""
    hand = north_bid_second_round_hokum()
    question = hand.question
    assert question is not None and question.kind is QuestionKind.BID
    assert question.about is Seat.N
    assert question.about  # an "if question.about:" sees North
    assert SeatView.of(hand, "W").to_json()["question"] == {"kind": "bid", "about": "N"}


def test_the_terminal_words_a_question_about_north_with_north() -> None:
    from baloot.cli.questions import call_context
    from baloot.words.strings import strings

    hand = north_bid_second_round_hokum()
    view = SeatView.of(hand, hand.to_act)
    text, _ = call_context(view, strings("en"))
    assert text == "N called a second-round Hokum. Sun, or pass?"


# --------------------------------------------------------------------------- (f) the layers

#: The layers from the bottom: a module may import its own layer or a lower one.
LAYERS = (
    "core",
    "solver",
    "records",
    "view",
    "table",
    "tournaments",
    "bots",
    "rl",
    "analysis",
    "words",
    "cli",
    "server",
)
#: Layers at the level of another, side by side: neither may import the other.
SIDE_BY_SIDE = {"server": "cli", "analysis": "words"}
ENTRY_POINTS = {"baloot", "baloot.__main__", "baloot.bench"}


def run_python(code: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    loaded: list[str] = json.loads(done.stdout)
    return loaded


def test_the_engine_records_and_view_load_no_terminal_bots_or_cli() -> None:
    loaded = run_python(
        "import json, sys\n"
        "import baloot.core.hand, baloot.core.match, baloot.records.record\n"
        "import baloot.records.replay, baloot.view\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    assert "baloot.view.seat_view" in loaded
    unwanted = [
        m
        for m in loaded
        if m.split(".")[0] == "rich" or m.startswith(("baloot.cli", "baloot.bots", "baloot.table"))
    ]
    assert not unwanted


def test_the_words_load_neither_an_interface_nor_the_terminal() -> None:
    """The web server words sheets and hints with :mod:`baloot.words`: importing it brings
    neither the command line, nor the server, nor ``rich``."""
    loaded = run_python(
        "import json, sys\n"
        "import baloot.words, baloot.words.hints, baloot.words.sheet\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    assert "baloot.words.strings" in loaded
    unwanted = [
        m
        for m in loaded
        if m.split(".")[0] == "rich" or m.startswith(("baloot.cli", "baloot.server"))
    ]
    assert not unwanted


def test_the_analysis_loads_neither_an_interface_nor_the_terminal() -> None:
    """The command line and the web server show an analysis that :mod:`baloot.analysis`
    computes: importing it brings neither of them, nor the words, nor ``rich``."""
    loaded = run_python(
        "import json, sys\nimport baloot.analysis\nprint(json.dumps(sorted(sys.modules)))\n"
    )
    assert "baloot.analysis.analyze" in loaded
    above = ("baloot.cli", "baloot.server", "baloot.words")
    unwanted = [m for m in loaded if m.split(".")[0] == "rich" or m.startswith(above)]
    assert not unwanted


def test_the_core_alone_loads_nothing_above_it() -> None:
    """Every ``baloot.core`` module imported without the package's facade
    (``baloot/__init__.py`` re-exports records and the view by design): nothing of the
    layers above comes along."""
    loaded = run_python(
        "import importlib, importlib.util, json, pathlib, sys, types\n"
        "spec = importlib.util.find_spec('baloot')\n"
        "package = types.ModuleType('baloot')\n"
        "package.__path__ = list(spec.submodule_search_locations)\n"
        "sys.modules['baloot'] = package\n"
        "core = pathlib.Path(package.__path__[0]) / 'core'\n"
        "for path in sorted(core.glob('*.py')):\n"
        "    name = 'baloot.core' if path.stem == '__init__' else 'baloot.core.' + path.stem\n"
        "    importlib.import_module(name)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    assert "baloot.core.hand" in loaded and "baloot.core.match" in loaded
    above = [m for m in loaded if m.startswith("baloot.") and not m.startswith("baloot.core")]
    assert not above
    assert not [m for m in loaded if m.split(".")[0] == "rich"]


def module_name(path: Path, root: Path) -> str:
    """``root/baloot/core/hand.py`` → ``baloot.core.hand``; a package by its own name."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, root: Path, modules: set[str]) -> set[str]:
    """Every module that ``path`` imports anywhere (top level, in functions, under
    TYPE_CHECKING), relative imports resolved; ``from P import m`` of a submodule ``m``
    counts as importing ``P.m``."""
    name = module_name(path, root)
    package = name if path.stem == "__init__" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                source = ".".join([*base, node.module] if node.module else base)
            else:
                source = node.module or ""
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                found.add(sub if sub in modules else source)
    found.discard(name)
    found.discard("__future__")
    return found


def import_graph(root: Path) -> dict[str, frozenset[str]]:
    """Each module of the ``baloot`` package under ``root`` with what it imports."""
    paths = sorted((root / "baloot").rglob("*.py"))
    modules = {module_name(p, root) for p in paths}
    return {module_name(p, root): frozenset(imports_of(p, root, modules)) for p in paths}


@functools.cache
def baloot_graph() -> dict[str, frozenset[str]]:
    return import_graph(SRC.parent)


def layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else None


def level(name: str) -> int:
    """How high a layer sits: the server is at the level of the command line."""
    return LAYERS.index(SIDE_BY_SIDE.get(name, name))


def above(theirs: str, mine: str) -> bool:
    """True when ``mine`` may not import ``theirs``: a higher layer, or one beside it."""
    return level(theirs) > level(mine) or (level(theirs) == level(mine) and theirs != mine)


def cycles(graph: dict[str, frozenset[str]]) -> list[list[str]]:
    """The import cycles among the graph's own modules, each as a path back to its start."""
    inside = {module: deps & graph.keys() for module, deps in graph.items()}
    found: list[list[str]] = []
    state: dict[str, int] = {}

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for dep in sorted(inside[module]):
            if state.get(dep) == 1:
                found.append([*path[path.index(dep) :], dep])
            elif dep not in state:
                visit(dep, [*path, dep])
        state[module] = 2

    for module in sorted(inside):
        if module not in state:
            visit(module, [module])
    return found


def layer_problems(graph: dict[str, frozenset[str]]) -> list[str]:
    """Imports of a higher layer (or of a module in no layer); the entry points excepted.
    The package itself re-exports some layers: importing it is as high as the highest."""
    root = max(
        (x for x in map(layer, graph.get("baloot", ())) if x is not None),
        key=level,
        default="core",
    )
    problems = []
    for module, deps in sorted(graph.items()):
        if module in ENTRY_POINTS:
            continue
        mine = layer(module)
        if mine is None:
            problems.append(f"{module} is in no layer of {LAYERS}")
            continue
        for dep in sorted(deps):
            if dep.split(".")[0] != "baloot":
                continue
            theirs = root if dep == "baloot" else layer(dep)
            if theirs is None or above(theirs, mine):
                problems.append(f"{module} ({mine}) imports {dep} ({theirs})")
    return problems


def core_problems(graph: dict[str, frozenset[str]]) -> list[str]:
    """Imports of the core from outside the standard library and the core itself."""
    problems = []
    for module, deps in sorted(graph.items()):
        if layer(module) != "core":
            continue
        for dep in sorted(deps):
            if dep == "baloot.core" or dep.startswith("baloot.core."):
                continue
            top = dep.split(".")[0]
            if top != "baloot" and top in sys.stdlib_module_names:
                continue
            problems.append(f"{module} imports {dep}")
    return problems


def private_core_problems(graph: dict[str, frozenset[str]]) -> list[str]:
    """Imports of a private core module (``baloot.core._x``) from outside the core."""
    return [
        f"{module} imports {dep}"
        for module, deps in sorted(graph.items())
        if layer(module) != "core"
        for dep in sorted(deps)
        if dep.startswith("baloot.core._")
    ]


def core_private_names() -> frozenset[str]:
    """The private attributes and methods of the core's objects that a search could reach
    for: the fields and rules of a hand, and those of a search position."""
    names: set[str] = set()
    for cls in (*Hand.__mro__, Position):
        names.update(vars(cls))
        names.update(getattr(cls, "__slots__", ()))
    return frozenset(n for n in names if n.startswith("_") and not n.startswith("__"))


def private_reads(root: Path, private: frozenset[str]) -> list[str]:
    """Every ``x._name`` outside the core, ``x`` not ``self`` nor ``cls``, where ``_name`` is
    one of ``private``: as far as a reading of the source can tell, a reach into a core
    object's private state."""
    found = []
    for path in sorted((root / "baloot").rglob("*.py")):
        if module_name(path, root).startswith("baloot.core"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if not isinstance(node, ast.Attribute) or node.attr not in private:
                continue
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                continue
            found.append(f"{module_name(path, root)}:{node.lineno} reads .{node.attr}")
    return found


def test_the_import_graph_is_read_correctly() -> None:
    graph = baloot_graph()
    assert "baloot.core._lookup" in graph["baloot.core._bidding"]  # from baloot.core import _lookup
    assert "baloot.cli.files" in graph["baloot.cli"]  # from .files import Output
    assert "baloot.bots.heuristic" in graph["baloot.bots.base"]  # inside a function
    assert "rich.console" in graph["baloot.cli.game"]


def test_the_layer_checks_catch_what_they_look_for(tmp_path: Path) -> None:
    """A small package that breaks every rule, to show the checks can fail."""
    files = {
        "__init__.py": "from baloot.view.v import V\n",
        "core/__init__.py": "",
        "core/a.py": "import json\nimport rich\nfrom baloot.core import b\n",
        "core/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
        "    from baloot.core.a import X\n",
        "core/c.py": "def f():\n    from baloot.records.r import R\n    import baloot\n",
        "records/__init__.py": "",
        "records/r.py": "from ..view import v\n",
        "view/__init__.py": "",
        "view/v.py": "from baloot.core.a import A\n",
        "words/__init__.py": "from baloot.bots import make_bot\n",
        "words/sheet.py": "from baloot.cli.play import ask\n",
        "words/hints.py": "def f():\n    from baloot.server import room\n",
        "cli/__init__.py": "from baloot.server import room\nfrom baloot.words import sheet\n",
        "cli/play.py": "",
        "server/__init__.py": "",
        "server/room.py": "from baloot.cli import play\nfrom baloot.bots import make_bot\n"
        "from baloot.words.sheet import sheet_text\n",
        "extra.py": "",
    }
    for name, text in files.items():
        path = tmp_path / "baloot" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    graph = import_graph(tmp_path)
    assert cycles(graph) == [["baloot.core.a", "baloot.core.b", "baloot.core.a"]]
    assert layer_problems(graph) == [
        "baloot.cli (cli) imports baloot.server.room (server)",
        "baloot.core.c (core) imports baloot (view)",
        "baloot.core.c (core) imports baloot.records.r (records)",
        "baloot.extra is in no layer of "
        "('core', 'solver', 'records', 'view', 'table', 'tournaments', 'bots', 'rl', 'analysis', "
        "'words', 'cli', 'server')",
        "baloot.records.r (records) imports baloot.view.v (view)",
        "baloot.server.room (server) imports baloot.cli.play (cli)",
        "baloot.words.hints (words) imports baloot.server.room (server)",
        "baloot.words.sheet (words) imports baloot.cli.play (cli)",
    ]
    assert core_problems(graph) == [
        "baloot.core.a imports rich",
        "baloot.core.c imports baloot",
        "baloot.core.c imports baloot.records.r",
    ]


def test_the_private_core_checks_catch_what_they_look_for(tmp_path: Path) -> None:
    files = {
        "core/__init__.py": "",
        "core/_state.py": "",
        "core/hand.py": "from baloot.core import _state\nx = hand._hands\n",
        "solver/__init__.py": "",
        "solver/a.py": "from baloot.core import _state\nimport baloot.core._state\n",
        "solver/b.py": "def f(hand, self):\n    return hand._trick, self._trick, hand._mine\n",
    }
    for name, text in files.items():
        path = tmp_path / "baloot" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert private_core_problems(import_graph(tmp_path)) == [
        "baloot.solver.a imports baloot.core._state"
    ]
    assert private_reads(tmp_path, core_private_names()) == ["baloot.solver.b:2 reads ._trick"]


def test_nothing_outside_the_core_imports_a_private_core_module() -> None:
    """The rules of play, the re-dealer and the state to search are public
    (:mod:`baloot.core.play_rules`, :mod:`baloot.core.redeal`, :meth:`Hand.position`): the
    private modules are the core's own business."""
    problems = private_core_problems(baloot_graph())
    assert not problems, "\n".join(problems)


def test_nothing_outside_the_core_reads_a_hand_or_a_positions_private_state() -> None:
    problems = private_reads(SRC.parent, core_private_names())
    assert not problems, "\n".join(problems)


def test_no_import_cycles_among_baloot_modules() -> None:
    found = cycles(baloot_graph())
    assert not found, " ; ".join(" -> ".join(c) for c in found)


def test_each_layer_imports_only_its_own_or_lower_layers() -> None:
    problems = layer_problems(baloot_graph())
    assert not problems, "\n".join(problems)


def test_the_core_imports_only_the_standard_library_and_itself() -> None:
    problems = core_problems(baloot_graph())
    assert not problems, "\n".join(problems)


#: Every public name of :class:`Hand`: moving code among the core's private parts keeps them.
HAND_NAMES = frozenset((
    "actions", "announced", "apply", "bidding", "bidding_length", "card_points", "check",
    "completed_deal", "contract", "copy", "current_trick", "dealer", "deck", "declared",
    "doubling", "exposed",
    "from_deck", "full_hand", "hand", "is_over", "knowledge", "legal_actions", "new",
    "next_dealer", "parse_action", "phase", "play_restriction", "played", "position", "projects",
    "question", "result", "round_two_start", "rules", "score_before", "shown_projects",
    "taker", "to_act", "trick_number", "tricks", "tricks_won", "undo",
))  # fmt: skip


def test_the_hand_keeps_every_public_name() -> None:
    assert {name for name in dir(Hand) if not name.startswith("_")} == HAND_NAMES


def test_every_module_of_every_package_is_a_few_hundred_lines_at_most() -> None:
    lengths = {
        path.relative_to(SRC).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in sorted(SRC.rglob("*.py"))
    }
    assert len(lengths) > 100, "the modules were not found"
    assert {name: n for name, n in lengths.items() if n > 600} == {}


def test_every_test_file_has_a_row_in_the_test_map() -> None:
    tests = Path(__file__).resolve().parent
    rows = re.findall(r"^\| `((?:\w+/)?test_\w+\.py)` \|", (tests / "README.md").read_text(), re.M)
    files = sorted(path.relative_to(tests).as_posix() for path in tests.rglob("test_*.py"))
    assert sorted(set(rows)) == sorted(rows), "a file has two rows in tests/README.md"
    assert sorted(rows) == files, "tests/README.md and the test files differ"
