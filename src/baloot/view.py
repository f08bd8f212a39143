"""What one seat may know of a hand: its own cards and everything public, nothing hidden.

Public: every action (a declaration names only the kinds of project), the exposed card and
who took it, the cards played, and from the second trick on the projects shown by the team
that won the comparison (R10.5).

Bots and remote players receive a :class:`SeatView`, never the :class:`~baloot.hand.Hand`
itself, so a hidden card cannot leak by accident.

>>> import random
>>> from baloot.hand import Hand
>>> hand = Hand.new(rng=random.Random(2))
>>> view = hand.view("W")
>>> view.seat, len(view.cards), view.exposed == hand.exposed, view.legal
(<Seat.W: 1>, 5, True, ())
>>> "hand" in dir(view)
False
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from baloot.actions import Action
from baloot.cards import Card, CardSet
from baloot.projects import Project, ProjectKind
from baloot.rules import Rules
from baloot.seats import Seat

if TYPE_CHECKING:
    from baloot.hand import Contract, Hand
    from baloot.state import Phase


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat's knowledge of a hand at one moment."""

    seat: Seat
    dealer: Seat
    rules: Rules
    score_before: tuple[int, int]
    phase: Phase
    to_act: Seat | None
    cards: CardSet
    exposed: Card
    taker: Seat | None
    contract: Contract | None
    actions: tuple[Action, ...]
    current_trick: tuple[tuple[Seat, Card], ...]
    trick_number: int
    tricks: tuple[int, int]
    card_points: tuple[int, int]
    declared: tuple[tuple[ProjectKind, ...] | None, ...]
    shown: tuple[Project, ...]
    own_projects: tuple[Project, ...]
    legal: tuple[Action, ...]

    @classmethod
    def of(cls, hand: Hand, seat: int) -> SeatView:
        """The view of ``seat`` (a place in play order) of ``hand``."""
        me = Seat(seat)
        result = hand.result()
        return cls(
            seat=me,
            dealer=hand.dealer,
            rules=hand.rules,
            score_before=hand.score_before,
            phase=hand.phase,
            to_act=hand.to_act,
            cards=hand.hand(me),
            exposed=hand.exposed,
            taker=hand.taker,
            contract=hand.contract,
            actions=tuple(hand.actions),
            current_trick=tuple(hand.current_trick),
            trick_number=hand.trick_number,
            tricks=result.tricks,
            card_points=result.card_points,
            declared=tuple(_kinds(hand.declared(s)) for s in Seat),
            shown=hand.shown_projects(),
            own_projects=hand.projects(me),
            legal=hand.legal_actions() if hand.to_act == me else (),
        )


def _kinds(projects: tuple[Project, ...] | None) -> tuple[ProjectKind, ...] | None:
    """What a declaration tells the table: the kinds of project, not their cards (R10.5)."""
    return None if projects is None else tuple(p.kind for p in projects)
