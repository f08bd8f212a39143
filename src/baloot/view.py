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
from baloot.cards import Card, CardSet, Suit
from baloot.projects import Project, ProjectKind
from baloot.rules import Rules
from baloot.seats import SEATS, Seat

if TYPE_CHECKING:
    from baloot.bidding import Question
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
    played: CardSet
    trick_number: int
    tricks: tuple[int, int]
    card_points: tuple[int, int]
    declared: tuple[tuple[ProjectKind, ...] | None, ...]
    shown: tuple[Project, ...]
    own_projects: tuple[Project, ...]
    legal: tuple[Action, ...]
    question: Question | None

    @property
    def trump(self) -> Suit | None:
        """The trump suit of a Hokum contract, else None."""
        return None if self.contract is None else self.contract.trump

    @property
    def unseen(self) -> CardSet:
        """Cards this seat has not seen: neither its own nor played (nor the exposed card
        while it lies on the table)."""
        seen = self.cards | self.played
        if self.taker is None:
            seen = seen | CardSet([self.exposed])
        return CardSet.full() - seen

    @classmethod
    def of(cls, hand: Hand, seat: int) -> SeatView:
        """The view of ``seat`` (a place in play order) of ``hand``."""
        me = SEATS[seat]
        to_act = hand.to_act
        return cls(
            seat=me,
            dealer=hand.dealer,
            rules=hand.rules,
            score_before=hand.score_before,
            phase=hand.phase,
            to_act=to_act,
            cards=hand.hand(me),
            exposed=hand.exposed,
            taker=hand.taker,
            contract=hand.contract,
            actions=tuple(hand.actions),
            current_trick=tuple(hand.current_trick),
            played=hand.played(),
            trick_number=hand.trick_number,
            tricks=hand.tricks,
            card_points=hand.card_points(),
            declared=tuple(_kinds(hand.declared(s)) for s in SEATS),
            shown=hand.shown_projects(),
            own_projects=hand.projects(me),
            legal=hand.legal_actions() if to_act == me else (),
            question=hand.question,
        )


def _kinds(projects: tuple[Project, ...] | None) -> tuple[ProjectKind, ...] | None:
    """What a declaration tells the table: the kinds of project, not their cards (R10.5)."""
    return None if projects is None else tuple(p.kind for p in projects)
