"""What one seat may know of a hand: its own cards and everything public, nothing hidden.

Public (``docs/seat-view.md`` §1): every action as the table heard it (a declaration names only
its kinds, except to the seat that made it), the exposed card and who took it, the cards
played, how many cards each seat holds, and from the second trick on the projects shown by
the team that won the comparison (R10.5).

Bots, remote players and browsers receive a :class:`SeatView`, never the
:class:`~baloot.core.hand.Hand` itself, so a hidden card cannot leak by accident;
:meth:`SeatView.to_json` is the ``baloot-view/1`` object that goes over the wire.

>>> import random
>>> from baloot.core.hand import Hand
>>> hand = Hand.new(rng=random.Random(2))
>>> view = SeatView.of(hand, "W")
>>> view.seat, len(view.cards), view.exposed == hand.exposed, view.legal
(<Seat.W: 1>, 5, True, ())
>>> view.to_json()["phase"], view.to_json()["question"]
('bidding-1', {'kind': 'bid', 'about': None})
>>> view.to_json()["known"]["N"]
{'void': [], 'no_trump': False, 'trump_below': None, 'holds': [], 'kinds': []}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Final

from baloot.core.actions import Action, Claim, Verb
from baloot.core.cards import Card, CardSet, Suit
from baloot.core.claim import Unseen, sure_of_every_trick
from baloot.core.hand import Hand
from baloot.core.knowledge import Knowledge, every_seat
from baloot.core.projects import Project, ProjectKind
from baloot.core.reasons import Reason
from baloot.core.rules import Rules
from baloot.core.scoring import HandResult
from baloot.core.seats import Seat
from baloot.core.vocabulary import Contract, Phase, Question, ShownProject, Trick
from baloot.records.record import rules_json
from baloot.records.summary import contract_json, hand_json, teams_json

FORMAT: Final = "baloot-view/1"
#: The seats whose hidden cards a seat (None: a spectator) does not see.
_OTHERS: Final = {me: tuple(s for s in Seat if s != me) for me in (None, *Seat)}


def heard(action: Action, listener: Seat | None) -> Action:
    """``action`` as ``listener`` hears it: another seat's declaration names only its kinds
    (``N declare sira:Td9d8d`` reaches E as ``N declare sira``); anything else is unchanged.
    A spectator (None) hears every declaration as kinds.

    >>> str(heard(Action.parse("N declare sira:Td9d8d"), Seat.E))
    'N declare sira'
    >>> str(heard(Action.parse("N declare sira:Td9d8d"), Seat.N))
    'N declare sira:Td9d8d'
    """
    if action.verb is not Verb.DECLARE or action.seat == listener:
        return action
    if all(claim.cards is None for claim in action.claims):
        return action
    return replace(action, claims=tuple(Claim(claim.kind) for claim in action.claims))


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat's knowledge of a hand at one moment (``docs/seat-view.md``).

    ``seat`` is None for a spectator, who sees the public part only. ``cards`` is the
    seat's own hand (JSON ``hand``); ``held`` how many cards each seat holds (by seat
    index); ``declared`` what each seat declared, as kinds, None until that seat has played
    its first card; ``restriction`` why this seat may not play every card it holds, when it
    is to play; ``known`` what the public history proves about the hidden cards of each
    other seat (of all four for a spectator), as :class:`~baloot.core.knowledge.Knowledge`.
    """

    seat: Seat | None
    dealer: Seat
    rules: Rules
    score_before: tuple[int, int]
    phase: Phase
    to_act: Seat | None
    cards: CardSet
    held: tuple[int, int, int, int]
    exposed: Card
    taker: Seat | None
    contract: Contract | None
    actions: tuple[Action, ...]
    bidding: tuple[Action, ...]
    doubling: tuple[Action, ...]
    round_two_start: int | None
    declared: tuple[tuple[ProjectKind, ...] | None, ...]
    shown: tuple[ShownProject, ...]
    own_projects: tuple[Project, ...]
    tricks: tuple[Trick, ...]
    known: Mapping[Seat, Knowledge]
    tricks_won: tuple[int, int]
    card_points: tuple[int, int]
    legal: tuple[Action, ...]
    question: Question | None
    restriction: Reason | None
    result: HandResult | None

    @classmethod
    def of(cls, hand: Hand, seat: Seat | str | None) -> SeatView:
        """What ``seat`` (None: a spectator) may know of ``hand`` now."""
        me = None if seat is None else Seat.coerce(seat)
        to_act = hand.to_act
        mine = me is not None and to_act == me
        tricks = hand.tricks()
        played_first = {play.seat for trick in tricks for play in trick.plays}
        over_unplayed = hand.is_over and not tricks
        known = every_seat(hand)
        return cls(
            seat=me,
            dealer=hand.dealer,
            rules=hand.rules,
            score_before=hand.score_before,
            phase=hand.phase,
            to_act=to_act,
            cards=hand.hand(me) if me is not None else CardSet(),
            held=_held(hand),
            exposed=hand.exposed,
            taker=hand.taker,
            contract=hand.contract,
            actions=tuple(heard(a, me) for a in hand.actions),
            bidding=hand.bidding(),
            doubling=hand.doubling(),
            round_two_start=hand.round_two_start,
            declared=tuple(
                _kinds(hand.declared(s)) if s in played_first or over_unplayed else None
                for s in Seat
            ),
            shown=hand.shown_projects(),
            own_projects=hand.projects(me) if me is not None else (),
            tricks=tricks,
            known={s: known[s] for s in _OTHERS[me]},
            tricks_won=hand.tricks_won,
            card_points=hand.card_points(),
            legal=hand.legal_actions() if mine else (),
            question=hand.question,
            restriction=hand.play_restriction() if mine else None,
            result=hand.result() if hand.is_over else None,
        )

    @property
    def trump(self) -> Suit | None:
        """The trump suit of a Hokum contract, else None."""
        return None if self.contract is None else self.contract.trump

    @property
    def trick_number(self) -> int:
        """Completed tricks so far (0–8)."""
        return sum(1 for trick in self.tricks if trick.winner is not None)

    @property
    def current_trick(self) -> tuple[tuple[Seat, Card], ...]:
        """The cards of the trick in progress, in playing order."""
        if not self.tricks or self.tricks[-1].winner is not None:
            return ()
        trick = self.tricks[-1]
        return tuple(zip((p.seat for p in trick.plays), trick.cards, strict=True))

    @property
    def played(self) -> CardSet:
        """Every card played so far, the trick in progress included."""
        return CardSet(card for trick in self.tricks for card in trick.cards)

    @property
    def claim_holds(self) -> bool:
        """True when this seat is to lead and its own cards win every remaining trick for
        every deal of the cards it has not seen that fits what it knows (Sawa), so that
        claiming reveals nothing (``docs/table-protocol.md``)."""
        seat, contract = self.seat, self.contract
        if seat is None or self.phase is not Phase.PLAYING or self.to_act != seat:
            return False
        if self.current_trick or contract is None:
            return False
        return sure_of_every_trick(self.cards, self.others_unseen(), self.trump, contract.locked)

    def others_unseen(self) -> tuple[Unseen, ...]:
        """Each other seat's hidden cards as this seat can bound them: the unseen cards the
        history does not exclude for it (nor prove in another's hand), how many it holds, the
        ones it surely holds; what a claim (Sawa) is weighed against."""
        unseen = self.unseen
        sure = {seat: knowledge.holds & unseen for seat, knowledge in self.known.items()}
        others = []
        for seat, knowledge in self.known.items():
            possible = unseen - knowledge.excluded
            for other, held in sure.items():
                if other != seat:
                    possible = possible - held
            others.append(Unseen(possible, self.held[seat], sure[seat]))
        return tuple(others)

    @property
    def unseen(self) -> CardSet:
        """Cards this seat has not seen in play: neither its own nor played (nor the exposed
        card while it lies on the table; once taken it is among the taker's hidden cards)."""
        seen = self.cards | self.played
        if self.taker is None:
            seen = seen | CardSet([self.exposed])
        return CardSet.full() - seen

    @property
    def legal_in_order(self) -> tuple[Action, ...]:
        """The legal actions in the order of the JSON ``legal``: sorted as plain strings."""
        return tuple(sorted(self.legal, key=str))

    def to_json(self) -> dict[str, Any]:
        """The ``baloot-view/1`` object of ``docs/seat-view.md``."""
        question = self.question
        return {
            "format": FORMAT,
            "seat": None if self.seat is None else self.seat.name,
            "dealer": self.dealer.name,
            "rules": rules_json(self.rules),
            "score_before": teams_json(self.score_before),
            "phase": self.phase.value,
            "to_act": None if self.to_act is None else self.to_act.name,
            "hand": [card.text for card in self.cards],
            "held": {s.name: self.held[s] for s in Seat},
            "exposed": self.exposed.text,
            "taker": None if self.taker is None else self.taker.name,
            "contract": contract_json(self.contract),
            "actions": [str(a) for a in self.actions],
            "bidding": [str(a) for a in self.bidding],
            "doubling": [str(a) for a in self.doubling],
            "declared": {
                s.name: None if kinds is None else [k.word for k in kinds]
                for s, kinds in zip(Seat, self.declared, strict=True)
            },
            "shown": [
                {
                    "seat": shown.seat.name,
                    "project": shown.project.kind.word,
                    "cards": [c.text for c in shown.project.cards],
                }
                for shown in self.shown
            ],
            "own_projects": [str(p) for p in self.own_projects],
            "tricks": [
                {
                    "leader": trick.leader.name,
                    "cards": [c.text for c in trick.cards],
                    "words": [word.value for word in trick.words],
                    "winner": None if trick.winner is None else trick.winner.name,
                    "points": trick.points,
                }
                for trick in self.tricks
            ],
            "known": {seat.name: knowledge.to_json() for seat, knowledge in self.known.items()},
            "tricks_won": teams_json(self.tricks_won),
            "card_points": teams_json(self.card_points),
            "legal": [str(a) for a in self.legal_in_order],
            "question": None
            if question is None
            else {
                "kind": question.kind.value,
                "about": None if question.about is None else question.about.name,
            },
            "result": None if self.result is None else hand_json(self.result),
        }


def _held(hand: Hand) -> tuple[int, int, int, int]:
    counts = [len(hand.hand(s)) for s in Seat]
    return (counts[0], counts[1], counts[2], counts[3])


def _kinds(projects: tuple[Project, ...] | None) -> tuple[ProjectKind, ...]:
    """What a declaration tells the table: the kinds of project, not their cards (R10.5)."""
    return () if projects is None else tuple(p.kind for p in projects)
