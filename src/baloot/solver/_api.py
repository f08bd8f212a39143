"""The solver's entry points: a Hand in, values for the team to act out, on either search."""

from __future__ import annotations

import dataclasses
import importlib
import os
from array import array
from collections.abc import Sequence
from enum import Enum
from functools import lru_cache
from types import ModuleType
from typing import Final

from baloot.core.actions import Action, Verb
from baloot.core.cards import CARDS
from baloot.core.hand import Hand
from baloot.core.position import Position
from baloot.core.vocabulary import Phase
from baloot.solver import _search
from baloot.solver._problem import Problem

_fast: ModuleType | None
try:
    _fast = importlib.import_module("baloot.solver._fast")
except ImportError:  # pragma: no cover - a machine without a compiler
    _fast = None

#: The version of the compiled search this package speaks to; an older build is not used.
FAST_VERSION: Final = 1
#: ``BALOOT_SOLVER=python`` makes the solver search in pure Python even when compiled.
ENVIRONMENT: Final = "BALOOT_SOLVER"


class Mode(Enum):
    """What a value counts: the written score of the hand, or its card points."""

    SCORE = "score"
    POINTS = "points"


def accelerated() -> bool:
    """True when the compiled search is installed and in use (``BALOOT_SOLVER=python`` turns
    it off)."""
    return (
        _fast is not None
        and getattr(_fast, "VERSION", None) == FAST_VERSION
        and os.environ.get(ENVIRONMENT, "").lower() != "python"
    )


def search(
    problem: Problem,
    *,
    want_values: bool,
    compiled: bool | None = None,
    use_table: bool = True,
    merge: bool = True,
) -> int | list[tuple[int, bool, int]]:
    """NS's value of ``problem`` (or of each legal play, with ``want_values``) on the
    compiled search or in Python (``compiled`` None: the compiled one when in use).
    ``use_table`` and ``merge`` off give the slower reference configuration."""
    if compiled is None:
        compiled = accelerated()
    if not compiled:
        engine = _search.Search(problem, use_table=use_table, merge=merge)
        return engine.values() if want_values else engine.value()
    if _fast is None:
        raise RuntimeError("the compiled search is not installed")
    table = b"".join(_packed(t, problem.total) for t in problem.tables) if problem.score else b""
    found = _fast.solve(
        problem.hands,
        problem.trick,
        problem.leader,
        int(problem.ekka),
        problem.gone,
        problem.trick_no,
        problem.ns_points,
        problem.flags,
        problem.trump,
        int(problem.locked),
        int(problem.partner_led_must_trump),
        int(problem.must_undertrump),
        problem.total,
        int(problem.score),
        table,
        problem.outcome,
        problem.declared,
        tuple(problem.options),
        problem.order,
        problem.pending,
        int(want_values),
        int(use_table),
        int(merge),
    )
    if want_values:
        return [(card, bool(ekka), value) for card, ekka, value in found]
    assert isinstance(found, int)
    return found


@lru_cache(maxsize=1024)
def _packed(table: tuple[int, ...], total: int) -> bytes:
    """A utility table as the compiled search reads it (zeros for a table left empty)."""
    return array("i", table or (0,) * ((total + 1) * 3)).tobytes()


def _for_team(problem: Problem, ns_value: int, team: int) -> int:
    """A value of NS turned into one of ``team``: card points as a difference of the teams."""
    value = ns_value if problem.score else 2 * ns_value - problem.total
    return -value if team else value


def solve(hand: Hand, mode: Mode | str = Mode.SCORE) -> int:
    """The value of ``hand`` under perfect play of both teams, for the team of the seat to
    act: its written score minus the other's (a Gahwa: +1 or -1), or in ``Mode.POINTS`` its
    card points of the whole hand minus the other's, the last trick's 10 included.

    Four tricks into a Sun of N, S to lead (NS has 33 card points, EW 23):

    >>> hand = _example()
    >>> hand.to_act, hand.card_points()
    (<Seat.S: 2>, (33, 23))
    >>> solve(hand, Mode.POINTS), solve(hand)
    (84, 18)
    """
    score = Mode(mode) is Mode.SCORE
    problem = Problem.of(_position(hand, score), score=score, root_declares=True)
    found = search(problem, want_values=False)
    assert isinstance(found, int)
    return _for_team(problem, found, problem.to_act & 1)


def values(hand: Hand, mode: Mode | str = Mode.SCORE) -> dict[Action, int]:
    """The value of each legal action of ``hand`` (as :func:`solve` counts it, for the team
    to act), in the order of :meth:`Hand.legal_actions`: every card, each Ekka lead, and on
    trick 1 each declaration.

    >>> [(str(a), v) for a, v in values(_example()).items()]
    [('S play 8s', 10), ('S play 7s', 10), ('S play Ad', 18), ('S play Qc', 18)]
    """
    score = Mode(mode) is Mode.SCORE
    legal = hand.legal_actions()
    problem = Problem.of(_position(hand, score), score=score, root_declares=False)
    team = problem.to_act & 1
    found = search(problem, want_values=True)
    assert isinstance(found, list)
    plays = {(card, ekka): _for_team(problem, v, team) for card, ekka, v in found}
    result: dict[Action, int] = {}
    for action in legal:
        card = action.card
        if card is not None:
            result[action] = plays[(card.index, action.ekka)]
        elif action.verb is Verb.DECLARE and not score:
            result[action] = max(plays.values())
        else:
            declared = hand.copy()
            declared.apply(action)
            result[action] = solve(declared, Mode.SCORE)
    return result


def world_values(
    hand: Hand, worlds: Sequence[tuple[int, int, int, int]], mode: Mode | str = Mode.SCORE
) -> list[dict[Action, int]]:
    """:func:`values` of ``hand`` with the seats' cards replaced by each of ``worlds`` (each
    seat's cards as a mask, N, W, S, E), after the first trick: the same play so far and the
    same stakes, only who holds which unplayed card differs. A searching bot solves many
    guesses of the hidden cards this way without building a hand for each; a guess that
    would change what is scored beyond the cards (who holds Baloot) needs its own hand.

    >>> hand = _example()
    >>> world_values(hand, [hand.position().hands]) == [values(hand)]
    True
    """
    if hand.trick_number == 0:
        raise ValueError("worlds are solved this way after the first trick")
    score = Mode(mode) is Mode.SCORE
    problem = Problem.of(_position(hand, score), score=score, root_declares=False)
    team = problem.to_act & 1
    legal = hand.legal_actions()
    found = []
    for cards in worlds:
        searched = search(dataclasses.replace(problem, hands=cards), want_values=True)
        assert isinstance(searched, list)
        plays = {(card, ekka): _for_team(problem, v, team) for card, ekka, v in searched}
        found.append({a: plays[(a.card.index, a.ekka)] for a in legal if a.card is not None})
    return found


def _position(hand: Hand, score: bool) -> Position:
    """The position of ``hand`` to search (with its stakes for the written score)."""
    if hand.phase is not Phase.PLAYING:
        raise ValueError(f"the solver needs a hand in its play phase, not {hand.phase.value}")
    return hand.position(stakes=score)


def _example() -> Hand:
    """The examples' hand: the ordered deck, N's Sun, four tricks of each seat's last card."""
    hand = Hand.from_deck(" ".join(c.text for c in CARDS), dealer="E")
    hand.apply("N sun")
    while hand.trick_number < 4:
        hand.apply([a for a in hand.legal_actions() if a.card is not None][-1])
    return hand
