"""Blind decisions: leads whose best card depended on cards the leader could not see, and
whether the card led was a double-dummy best one (``docs/integrity.md``).

A lead counts when its legal cards differ in double-dummy value on the true deal (card
points, :data:`baloot.solver.Mode.POINTS`) and no card is best both on the true deal and in
every sampled world that agrees with the leader's view (:class:`~baloot.bots.worlds.
WorldSampler`): what the seat could see did not settle the best card. A player who finds
the best card of such leads far more often than everyone else may be seeing more than their
own cards, which is what the collusion screen looks for. Each decision's worlds come from a
generator seeded from the match, hand and place, so a count is the same on every run. A
lead that a stand-in bot made for a human (``x_stand_in``) is not the human's, and not counted.

>>> import random
>>> from baloot.core.match import Match
>>> from baloot.bots.driver import play_match
>>> from baloot.bots.random_bot import RandomBot
>>> from baloot.core.rules import Rules
>>> from baloot.core.seats import Seat
>>> match = Match(Rules.preset("classic"), Seat.E, random.Random(2))
>>> _ = play_match(match, {seat: RandomBot(random.Random(int(seat))) for seat in Seat})
>>> found = blind_decisions(Record.of(match), "m1", Budget(worlds=2, tricks=1))
>>> all(decision.trick == 1 and decision.position > 0 for decision in found)
True
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Final

from baloot.bots.worlds import InconsistentWorldError, WorldSampler
from baloot.core.actions import Action
from baloot.core.cards import Card
from baloot.core.hand import Hand
from baloot.core.seats import Seat
from baloot.core.vocabulary import Phase
from baloot.records.record import STAND_IN_KEY, Record
from baloot.records.replay import replay
from baloot.solver import Mode, values
from baloot.view.seat_view import SeatView

#: Sampled worlds per lead, by default: each one solved once (about 15 ms compiled).
WORLDS: Final = 16
#: The tricks whose leads are looked at, by default: the opening lead and the next two.
TRICKS: Final = 3


@dataclass(frozen=True)
class Budget:
    """How much a screen solves: ``worlds`` sampled worlds per lead, the leads of the first
    ``tricks`` tricks, and the ``seed`` every decision's generator starts from."""

    worlds: int = WORLDS
    tricks: int = TRICKS
    seed: int = 0

    def __post_init__(self) -> None:
        if self.worlds < 1:
            raise ValueError(f"worlds must be at least 1, not {self.worlds}")
        if not 1 <= self.tricks <= 8:
            raise ValueError(f"tricks must be from 1 to 8, not {self.tricks}")


@dataclass(frozen=True)
class Blind:
    """One blind lead: its hand (from 1), its place in the record, the seat that led, the
    trick (from 1), and whether the card led was a double-dummy best one."""

    hand: int
    position: int
    seat: Seat
    trick: int
    hit: bool


def blind_decisions(record: Record, key: str, budget: Budget = Budget()) -> list[Blind]:
    """The blind leads of every hand of ``record``; ``key`` (the match's id) seeds each
    decision's worlds with the hand and the place, so the same match gives the same list."""
    found: list[Blind] = []
    for number, position, before, action in _leads(record, budget.tricks):
        rng = random.Random(f"{budget.seed}:{key}:{number}:{position}")
        hit = blind_hit(before, action, budget.worlds, rng)
        if hit is not None:
            seat = before.to_act
            assert seat is not None
            found.append(Blind(number, position, seat, before.trick_number + 1, hit))
    return found


def blind_hit(hand: Hand, chosen: Action, worlds: int, rng: random.Random) -> bool | None:
    """Whether ``chosen`` (a card) was a double-dummy best card of ``hand``, or None when the
    decision is not blind: one card, cards of equal value, or a card best on the true deal
    and in each of ``worlds`` worlds drawn with ``rng`` from the seat's view."""
    if chosen.card is None:
        return None
    truth = _by_card(values(hand, Mode.POINTS))
    if len(set(truth.values())) < 2:
        return None
    seat = hand.to_act
    assert seat is not None
    settled = _best(truth)
    try:
        drawn = WorldSampler(SeatView.of(hand, seat)).worlds(rng, worlds)
    except InconsistentWorldError:
        return None
    for world, _ in drawn:
        settled &= _best(_by_card(values(world, Mode.POINTS)))
        if not settled:
            break
    if settled:
        return None
    return chosen.card in _best(truth)


def _leads(record: Record, tricks: int) -> Iterator[tuple[int, int, Hand, Action]]:
    """Every card led in the first ``tricks`` tricks of the record's hands, with the hand
    before it; never one its stand-in bot led for a human (the hand's ``x_stand_in``)."""
    for number, position, before, action in replay(record).positions():
        stand_ins = record.hands[number - 1].metadata.get(STAND_IN_KEY, ())
        if (
            position not in stand_ins
            and before.phase is Phase.PLAYING
            and action.card is not None
            and not before.current_trick
            and before.trick_number < tricks
        ):
            yield number, position, before, action


def _by_card(found: Mapping[Action, int]) -> dict[Card, int]:
    """The best value of each card among the actions (an Ekka lead and a plain one alike)."""
    cards: dict[Card, int] = {}
    for action, value in found.items():
        if action.card is not None:
            cards[action.card] = max(value, cards.get(action.card, value))
    return cards


def _best(cards: Mapping[Card, int]) -> set[Card]:
    """The cards of the highest value."""
    top = max(cards.values())
    return {card for card, value in cards.items() if value == top}
