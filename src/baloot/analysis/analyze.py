"""The analysis of a record: every decision of its hands judged, or one position.

A decision is the position before one action of a hand where the seat to act had more than
one legal action. Plays and declarations are judged by their exact values in the real deal
(hindsight); calls (bids, the trump, doubles), which have no exact value before the cards are
played, by the bot's estimates. Positions are numbered as ``baloot replay`` numbers actions in
its messages: an action's 1-based place among the hand's ``actions`` in the record.

>>> from baloot.records.record import loads
>>> from baloot.core.cards import CARDS
>>> record = loads('format = "baloot/1"\\ndealer = "E"\\ndeck = "%s"\\nactions = ["N sun"]'
...                % " ".join(c.text for c in CARDS))
>>> point = point_at(record, 1, 1)
>>> point.hand.to_act, point.options, point.chosen, point.exact
(<Seat.N: 0>, (Action('N hokum'), Action('N pass'), Action('N sun')), Action('N sun'), False)
>>> point_at(record, 1, 2).chosen is None  # the record ends here: N is to lead
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from baloot.core.actions import Action, Claim
from baloot.core.errors import BalootError
from baloot.core.hand import Hand
from baloot.core.vocabulary import Level, Phase
from baloot.records.record import Record
from baloot.records.replay import Replay, replay

from .marks import Unit
from .model import Analysis, Decision, HandAnalysis, Option

if TYPE_CHECKING:
    from .judge import Judge

#: Called after each decision is judged with how many are done and how many there are.
Progress = Callable[[int, int], None]


class AnalysisError(BalootError):
    """An analysis that cannot be made: no such hand or position."""


@dataclass(frozen=True, slots=True)
class Point:
    """A position to judge: hand ``number``, the record's ``position`` of the action taken
    there (``chosen``; None at the end of a record still in progress) and the hand before it."""

    number: int
    position: int
    chosen: Action | None
    hand: Hand

    @property
    def options(self) -> tuple[Action, ...]:
        """The legal actions of the position."""
        return self.hand.legal_actions()

    @property
    def exact(self) -> bool:
        """True for a play or a declaration (the play phase), which has an exact value."""
        return self.hand.phase is Phase.PLAYING

    def judged(self, judge: Judge) -> Decision:
        """The decision at this point, with the judge's values of every option."""
        hand = self.hand
        seat = hand.to_act
        assert seat is not None
        exact = judge.exact(hand.copy()) if self.exact else None
        estimate = judge.estimate(hand.copy(), f"{self.number}:{self.position}")
        options = tuple(
            Option(
                action,
                None if exact is None else exact[action],
                None if estimate is None else float(estimate.values[action]),
            )
            for action in self.options
        )
        contract = hand.contract
        gahwa = self.exact and contract is not None and contract.level is Level.GAHWA
        return Decision(
            hand=self.number,
            position=self.position,
            seat=seat,
            phase=hand.phase,
            chosen=None if self.chosen is None else _as_legal(self.chosen, self.options),
            exact=self.exact,
            unit=Unit.MATCH if gahwa else Unit.GAME_POINTS,
            options=options,
            expert=None if estimate is None else estimate.choice,
        )


def _plain(action: Action) -> Action:
    """An action without what does not change the decision: the Baloot word (announced for
    the player) and the cards a declaration names (the table hears the kinds)."""
    claims = tuple(Claim(claim.kind) for claim in action.claims)
    return dataclasses.replace(action, baloot=False, claims=claims)


def _as_legal(chosen: Action, legal: Sequence[Action]) -> Action:
    """The legal action that ``chosen`` (as the record wrote it) is."""
    plain = _plain(chosen)
    for action in legal:
        if _plain(action) == plain:
            return action
    raise AssertionError(f"{chosen} was applied but is not among the legal actions")


def _points(played: Replay, number: int) -> list[Point]:
    """Every position of hand ``number`` of the ``played`` record, forced ones included, and
    the position after its last action if it is not over."""
    points = [Point(n, k, action, before) for n, k, before, action in played.positions(number)]
    hand = played.hands[number - 1]
    if not hand.is_over:
        last = len(played.record.hands[number - 1].actions)
        points.append(Point(number, last + 1, None, hand.copy()))
    return points


def _to_judge(points: list[Point], estimated: bool) -> list[Point]:
    """The decisions among ``points``: an action taken where there was a choice (a call
    only when ``estimated``, as it has no exact value)."""
    return [
        point
        for point in points
        if point.chosen is not None and len(point.options) > 1 and (point.exact or estimated)
    ]


def _check_hand(hands: Sequence[Hand], number: int) -> None:
    if not 1 <= number <= len(hands):
        count = len(hands)
        raise AnalysisError(
            f"no hand {number}: the record has {count} hand{'s' if count != 1 else ''}"
        )


@dataclass(frozen=True)
class HandPlan:
    """The decisions of hand ``number`` to judge, in order, and how many were forced."""

    number: int
    todo: tuple[Point, ...]
    forced: int


@dataclass(frozen=True)
class Plan:
    """What the analysis of a record judges, laid out before anything is judged: each
    decision is judged on its own (the bot's generator seeded from its position), so the
    decisions may be judged anywhere, in any order (a server sends them to its workers), and
    put together by :meth:`analysis`."""

    played: Replay
    hands: tuple[HandPlan, ...]

    @classmethod
    def of(cls, record: Record, *, estimated: bool, hand: int | None = None) -> Plan:
        """The plan of every finished hand of ``record`` (or of hand ``hand`` alone,
        finished or not: the decisions made so far); calls are judged only when
        ``estimated`` (a bot estimates). Raises as :func:`analyze_record`."""
        played = replay(record)
        if hand is not None:
            _check_hand(played.hands, hand)
            numbers = [hand]
        else:
            numbers = [n for n, h in enumerate(played.hands, 1) if h.is_over]
        plans = []
        for number in numbers:
            every = _points(played, number)
            forced = sum(1 for p in every if p.chosen is not None and len(p.options) == 1)
            plans.append(HandPlan(number, tuple(_to_judge(every, estimated)), forced))
        return cls(played, tuple(plans))

    @property
    def points(self) -> tuple[Point, ...]:
        """Every decision to judge, hand by hand."""
        return tuple(point for plan in self.hands for point in plan.todo)

    def analysis(self, decisions: Sequence[Decision], judge: Judge) -> Analysis:
        """The analysis, from the :attr:`points` judged by ``judge``, in their order."""
        assert len(decisions) == len(self.points), "one decision for each point"
        hands, record = self.played.hands, self.played.record
        judged = iter(decisions)
        analysed = []
        for plan in self.hands:
            replayed = hands[plan.number - 1]
            mine = tuple(next(judged) for _ in plan.todo)
            analysed.append(
                HandAnalysis(plan.number, replayed.result(), replayed.exposed, mine, plan.forced)
            )
        numbers = {plan.number for plan in self.hands}
        players = record.metadata.get("players", {})
        return Analysis(
            tuple(analysed),
            judge.bot,
            judge.seed,
            {str(k): str(v) for k, v in players.items()} if isinstance(players, dict) else {},
            tuple(n for n, h in enumerate(hands, 1) if not h.is_over and n not in numbers),
        )


def analyze_record(
    record: Record,
    judge: Judge,
    *,
    hand: int | None = None,
    progress: Progress | None = None,
) -> Analysis:
    """Judge every decision of every finished hand of ``record`` (or of hand ``hand`` alone,
    finished or not: the decisions made so far).

    Raises ``ReplayError`` or ``RecordError`` for a record that does not replay and
    :class:`AnalysisError` for a hand it does not have.
    """
    plan = Plan.of(record, estimated=judge.bot is not None, hand=hand)
    points = plan.points
    decisions = []
    for done, point in enumerate(points, 1):
        decisions.append(point.judged(judge))
        if progress is not None:
            progress(done, len(points))
    return plan.analysis(decisions, judge)


def analyze_position(
    record: Record, judge: Judge, hand: int, position: int
) -> tuple[Point, Decision]:
    """Judge the position before action ``position`` (from 1, as the record numbers the
    hand's actions) of hand ``hand``: every legal option, even a forced one. In a hand still in
    progress, the position after its last action may be asked too (nothing chosen yet).

    Returns the position with its decision, from one replay of the record.
    """
    point = point_at(record, hand, position)
    if not point.exact and judge.bot is None:
        raise AnalysisError(
            f"hand {hand}: action {position} is a call, which has no exact value: "
            "only a bot's estimates judge it (not --bot none)"
        )
    return point, point.judged(judge)


def point_at(record: Record, hand: int, position: int) -> Point:
    """The position before action ``position`` of hand ``hand`` (:class:`AnalysisError` if
    the record has no such action)."""
    played = replay(record)
    hands = played.hands
    _check_hand(hands, hand)
    points = {p.position: p for p in _points(played, hand)}
    point = points.get(position)
    if point is None:
        count = len(record.hands[hand - 1].actions)
        if 1 <= position <= count:
            raise AnalysisError(f"hand {hand}: action {position} is only a comment")
        after = "" if hands[hand - 1].is_over else f" (or {count + 1}, the position after them)"
        raise AnalysisError(
            f"hand {hand} has no action {position}: its positions are 1 to {count}{after}"
        )
    return point
