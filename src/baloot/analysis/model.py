"""What an analysis holds: each decision with the value of every option, its loss and mark,
a summary per seat, and the JSON of ``baloot analyze --json`` (``docs/analysis.md``).

>>> queen, jack = Action.parse("S play Qd"), Action.parse("S play Jd")
>>> decision = Decision(
...     hand=1, position=13, seat=Seat.S, phase=Phase.PLAYING, chosen=jack, exact=True,
...     unit=Unit.GAME_POINTS, options=(Option(queen, 10, 9.5), Option(jack, 4, 6.0)),
...     expert=queen)
>>> decision.best, decision.value, decision.loss, decision.mark, decision.expert_loss
(Action('S play Qd'), 4, 6, <Mark.MISTAKE: 'mistake'>, 0)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from baloot.core.actions import Action
from baloot.core.cards import Card
from baloot.core.scoring import HandResult
from baloot.core.seats import Seat
from baloot.core.vocabulary import Level, Phase
from baloot.records.summary import hand_json

from .marks import THRESHOLDS, Mark, Unit, mark_of

FORMAT: Final = "baloot-analysis/1"
#: Estimates are sampled: the JSON gives them to two decimals.
DECIMALS: Final = 2


@dataclass(frozen=True, slots=True)
class Option:
    """One legal action at a decision: its exact value in hindsight (plays; None for a call,
    which has none) and the bot's estimate without hindsight (None when no bot estimates)."""

    action: Action
    exact: int | None
    estimate: float | None

    def value(self, exact: bool) -> float | None:
        """The value the decision is judged by: exact, or else the estimate."""
        return self.exact if exact else self.estimate


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of a hand: the position before the action at ``position`` (the action's
    1-based place among the hand's actions in the record), who decided, what they chose
    (None at the end of a record still in progress), and every option.

    ``exact`` decisions (plays and declarations) are judged by their exact values; calls
    (bids, the trump, doubles) by the bot's estimates. ``unit`` is what the values count.
    """

    hand: int
    position: int
    seat: Seat
    phase: Phase
    chosen: Action | None
    exact: bool
    unit: Unit
    options: tuple[Option, ...]
    expert: Action | None = None
    """What the bot would have chosen without hindsight (None when no bot estimates)."""

    def value_of(self, action: Action) -> float | None:
        """The judged value of one option."""
        for option in self.options:
            if option.action == action:
                return option.value(self.exact)
        raise KeyError(str(action))

    @property
    def value(self) -> float | None:
        """The judged value of the action chosen."""
        return None if self.chosen is None else self.value_of(self.chosen)

    @property
    def best_value(self) -> float | None:
        """The highest judged value of any option."""
        known = [v for o in self.options if (v := o.value(self.exact)) is not None]
        return max(known) if known else None

    @property
    def best(self) -> Action | None:
        """The best option: the one chosen when it is as good as any, else the first best
        in the engine's order of the legal actions."""
        top = self.best_value
        if top is None:
            return None
        if self.chosen is not None and self.value == top:
            return self.chosen
        return next(o.action for o in self.options if o.value(self.exact) == top)

    @property
    def loss(self) -> float | None:
        """How much the choice gave away: best value minus chosen value (0 or more)."""
        value, top = self.value, self.best_value
        return None if value is None or top is None else top - value

    @property
    def mark(self) -> Mark | None:
        """The mark the loss earns, or None."""
        loss = self.loss
        return None if loss is None else mark_of(loss, self.unit)

    @property
    def expert_loss(self) -> float | None:
        """What the bot's choice would have lost, judged as the decision is."""
        choice, top = self.expert, self.best_value
        if choice is None or top is None:
            return None
        value = self.value_of(choice)
        return None if value is None else top - value

    def to_json(self) -> dict[str, Any]:
        """The decision's object in ``baloot analyze --json``."""
        mark = self.mark
        expert = self.expert
        return {
            "position": self.position,
            "seat": self.seat.name,
            "phase": self.phase.value,
            "action": None if self.chosen is None else str(self.chosen),
            "exact": self.exact,
            "unit": self.unit.value,
            "options": [
                {
                    "action": str(o.action),
                    "value": _number(o.value(self.exact)),
                    "expert": _number(o.estimate),
                }
                for o in self.options
            ],
            "value": _number(self.value),
            "best": None if self.best is None else str(self.best),
            "best_value": _number(self.best_value),
            "loss": _number(self.loss),
            "mark": None if mark is None else mark.value,
            "symbol": None if mark is None else mark.symbol,
            "expert": None
            if expert is None
            else {"action": str(expert), "loss": _number(self.expert_loss)},
        }


def _number(value: float | None) -> float | int | None:
    """An exact value as it is; an estimate to :data:`DECIMALS` places."""
    if value is None or isinstance(value, int):
        return value
    rounded = round(value, DECIMALS)
    return int(rounded) if rounded == int(rounded) else rounded


@dataclass(frozen=True, slots=True)
class Tally:
    """One seat's decisions of one kind (exact plays, or estimated calls): how many, the
    total loss in game points, and how many earned each mark."""

    decisions: int = 0
    loss: float = 0.0
    scored: int = 0
    marks: Mapping[Mark, int] = field(default_factory=dict)

    def add(self, decision: Decision) -> Tally:
        """This tally with ``decision`` counted (its loss only in game points)."""
        loss = decision.loss
        mark = decision.mark
        marks = dict(self.marks)
        if mark is not None:
            marks[mark] = marks.get(mark, 0) + 1
        in_points = loss is not None and decision.unit is Unit.GAME_POINTS
        return Tally(
            self.decisions + 1,
            self.loss + (loss if in_points and loss is not None else 0.0),
            self.scored + in_points,
            marks,
        )

    @property
    def average_loss(self) -> float | None:
        """The mean loss in game points of the decisions counted in game points."""
        return None if not self.scored else self.loss / self.scored

    def to_json(self) -> dict[str, Any]:
        """``{"decisions", "average_loss", "inaccuracy", "mistake", "blunder"}``."""
        return {
            "decisions": self.decisions,
            "average_loss": _number(self.average_loss),
            **{mark.value: self.marks.get(mark, 0) for mark in Mark},
        }


def tally(decisions: Iterable[Decision]) -> dict[Seat, tuple[Tally, Tally]]:
    """Each seat's tallies: of its exact decisions (plays), then of its estimated ones
    (calls)."""
    out = {seat: (Tally(), Tally()) for seat in Seat}
    for decision in decisions:
        if decision.chosen is None:
            continue
        plays, calls = out[decision.seat]
        if decision.exact:
            out[decision.seat] = (plays.add(decision), calls)
        else:
            out[decision.seat] = (plays, calls.add(decision))
    return out


def summary_json(decisions: Iterable[Decision]) -> dict[str, Any]:
    """``{"N": {"plays": TALLY, "calls": TALLY}, ...}``."""
    return {
        seat.name: {"plays": plays.to_json(), "calls": calls.to_json()}
        for seat, (plays, calls) in tally(decisions).items()
    }


@dataclass(frozen=True, slots=True)
class HandAnalysis:
    """The decisions of one hand (``number`` from 1) and what the hand came to."""

    number: int
    result: HandResult
    exposed: Card
    decisions: tuple[Decision, ...]
    skipped: int = 0
    """Decisions with a single legal action (nothing to judge), not listed."""

    @property
    def unit(self) -> Unit:
        """What the exact values of the hand count: the match for a Gahwa hand."""
        contract = self.result.contract
        gahwa = contract is not None and contract.level is Level.GAHWA
        return Unit.MATCH if gahwa else Unit.GAME_POINTS

    def to_json(self) -> dict[str, Any]:
        """The hand's object in ``baloot analyze --json``."""
        result = hand_json(self.result)
        return {
            "hand": self.number,
            "dealer": result["dealer"],
            "exposed": self.exposed.text,
            "outcome": result["outcome"],
            "contract": result["contract"],
            "score": result["score"],
            "unit": self.unit.value,
            "forced": self.skipped,
            "decisions": [d.to_json() for d in self.decisions],
            "summary": summary_json(self.decisions),
        }


@dataclass(frozen=True, slots=True)
class Analysis:
    """The analysis of a record's hands: by whom (``bot``, None: exact values only), with
    which seed, and of which hands."""

    hands: tuple[HandAnalysis, ...]
    bot: str | None
    seed: int
    players: Mapping[str, str] = field(default_factory=dict)
    in_progress: tuple[int, ...] = ()
    """Hands of the record left out because they are not over."""

    def decisions(self) -> list[Decision]:
        """Every decision of every hand, in order."""
        return [d for hand in self.hands for d in hand.decisions]

    def to_json(self) -> dict[str, Any]:
        """What ``baloot analyze --json`` prints (``docs/analysis.md``)."""
        return {
            "format": FORMAT,
            "bot": self.bot,
            "seed": self.seed,
            "thresholds": {mark.value: value for mark, value in THRESHOLDS.items()},
            "players": dict(self.players),
            "hands": [hand.to_json() for hand in self.hands],
            "in_progress": list(self.in_progress),
            "summary": summary_json(self.decisions()),
        }
