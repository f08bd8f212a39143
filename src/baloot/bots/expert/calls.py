"""What the calls of the other seats make likely about their cards.

A seat that passed a Hokum in the exposed suit rarely holds its J and 9, a Sun bidder holds
Aces, a doubler holds trumps. The likelihood of a call is a soft threshold on the hand values
of :mod:`baloot.bots.heuristic.values` (any sound player bids on much the same strength):
``EPSILON + (1 - EPSILON) * sigmoid(SLOPE * margin)``, where the margin is how far the value
lies above the usual threshold for that call (below, for a pass).

>>> round(likelihood(0.0), 2), round(likelihood(5.0), 2), round(likelihood(-5.0), 2)
(0.54, 0.97, 0.11)
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from baloot.bots.heuristic.tuning import Thresholds
from baloot.bots.heuristic.values import JACK, NINE, defence_value, hokum_value, sun_value
from baloot.core.actions import Action, Verb
from baloot.core.cards import Card, Suit
from baloot.core.hand import Hand
from baloot.core.seats import Seat
from baloot.core.vocabulary import Phase, QuestionKind

#: Floor of a call's likelihood: players do make odd calls.
EPSILON: Final = 0.08
#: How sharply the likelihood of a call rises with its margin, per point of hand value.
SLOPE: Final = 0.7
#: Value taken off a Hokum suit that lacks its J and 9 or a second card.
NO_HOKUM_SUIT: Final = 3.0

_T: Final = Thresholds()
_FIRST_DEAL: Final = (0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 0, 0, 1, 1, 2, 2, 3, 3)
_BIDDING: Final = frozenset({Phase.BIDDING_ROUND_1, Phase.BIDDING_ROUND_2, Phase.BIDDING_ROUND_3})


def likelihood(margin: float) -> float:
    """How likely a call is for a hand ``margin`` above the call's threshold."""
    return EPSILON + (1 - EPSILON) / (1 + math.exp(-SLOPE * margin))


def hokum_strength(cards: Sequence[Card], suit: Suit) -> float:
    """The Hokum value of ``cards`` in ``suit``, less :data:`NO_HOKUM_SUIT` without the J or
    9 of the suit and a second card of it."""
    value = hokum_value(cards, suit)
    in_suit = [c for c in cards if c.suit == suit]
    if len(in_suit) < 2 or not any(c.rank in (JACK, NINE) for c in in_suit):
        value -= NO_HOKUM_SUIT
    return value


def _margins(
    cards: Sequence[Card],
    exposed: Card,
    phase: Phase,
    verbs: frozenset[Verb],
    trump: Suit | None,
) -> dict[Verb, float]:
    """For each call among ``verbs``, how far ``cards`` lie above that call's threshold
    (bidding: the first five, with the exposed card they would take; doubling: all eight)."""
    margins: dict[Verb, float] = {}
    if phase in _BIDDING:
        six = [*cards, exposed]
        if Verb.HOKUM in verbs:
            if phase is Phase.BIDDING_ROUND_1:
                suits: Sequence[Suit] = (exposed.suit,)
            else:
                suits = [s for s in Suit if s != exposed.suit]
            margins[Verb.HOKUM] = max(hokum_strength(six, s) for s in suits) - _T.hokum_bid
        if Verb.SUN in verbs:
            margins[Verb.SUN] = sun_value(six) - _T.sun_bid
        if Verb.ASHKAL in verbs:
            margins[Verb.ASHKAL] = sun_value(cards) - _T.sun_bid
        return margins
    if phase is not Phase.DOUBLING:
        return margins
    if Verb.DOUBLE in verbs:
        if trump is None:
            margins[Verb.DOUBLE] = sun_value(cards) - _T.double_sun
        else:
            margins[Verb.DOUBLE] = defence_value(cards, trump) - _T.double_hokum
    if trump is not None:
        if Verb.TRIPLE in verbs:
            margins[Verb.TRIPLE] = hokum_value(cards, trump) - _T.triple_hokum
        if Verb.FOUR in verbs:
            margins[Verb.FOUR] = defence_value(cards, trump) - _T.four_hokum
        if Verb.GAHWA in verbs:
            margins[Verb.GAHWA] = hokum_value(cards, trump) - _T.gahwa_hokum
    return margins


@dataclass(frozen=True, slots=True)
class Call:
    """One call of a seat with what its likelihood depends on besides the seat's cards: the
    phase, the calls open to it, and the trump of the contract (doubling)."""

    action: Action
    phase: Phase
    legal: tuple[Action, ...]
    trump: Suit | None
    silent: bool  # a take-over offer after the partner's own call: the answer tells nothing

    @classmethod
    def of(cls, hand: Hand, action: Action) -> Call:
        """``action`` as the seat to act in ``hand`` would make it now."""
        question = hand.question
        silent = (
            question is not None
            and question.kind in (QuestionKind.TAKE_OVER_SUN, QuestionKind.TAKE_OVER_ASHKAL)
            and question.about is not None
            and question.about.team == action.seat.team
        )
        contract = hand.contract
        trump = contract.trump if contract is not None else None
        return cls(action, hand.phase, hand.legal_actions(), trump, silent)

    def likelihood(self, cards: Sequence[Card], exposed: Card) -> float:
        """How likely a seat holding ``cards`` makes this call."""
        if self.silent:
            return 1.0
        action = self.action
        if self.phase is Phase.TRUMP_NAMING:
            return self._naming(cards, exposed)
        verbs = frozenset(a.verb for a in self.legal)
        margins = _margins(cards, exposed, self.phase, verbs, self.trump)
        if not margins:
            return 1.0
        if action.verb is Verb.PASS:
            return likelihood(-max(margins.values()))
        margin = margins.get(action.verb)
        return 1.0 if margin is None else likelihood(margin)

    def _naming(self, cards: Sequence[Card], exposed: Card) -> float:
        """The trump named (or Sun instead) against the best of the other choices."""
        six = [*cards, exposed]
        worth: dict[Action, float] = {}
        for option in self.legal:
            if option.suit is not None:
                worth[option] = hokum_strength(six, option.suit) - _T.hokum_bid
            elif option.verb is Verb.SUN:
                worth[option] = sun_value(six) - _T.sun_bid
        if self.action not in worth or len(worth) < 2:
            return 1.0
        best_other = max(v for a, v in worth.items() if a != self.action)
        return likelihood(worth[self.action] - best_other)


def call_likelihood(hand: Hand, action: Action) -> float:
    """How likely the seat to act in ``hand`` makes the call ``action``, given its cards."""
    return Call.of(hand, action).likelihood(list(hand.hand(action.seat)), hand.exposed)


def calls_of(world: Hand, me: Seat) -> tuple[Call, ...]:
    """The calls of the other seats (bidding and doubling) in ``world``, replayed on its
    deck: what they depend on is public, so it is read once for all the worlds of a view."""
    replay = Hand.from_deck(list(world.deck), world.dealer, world.rules, world.score_before)
    calls = []
    for action in world.actions:
        if action.verb is Verb.PLAY or action.verb is Verb.DECLARE:
            break
        if action.seat != me:
            calls.append(Call.of(replay, action))
        replay.apply(action)
    return tuple(calls)


def first_five(world: Hand, seat: Seat) -> list[Card]:
    """The five cards ``seat`` was dealt first in ``world`` (R3.2), read off its deck."""
    deck = world.deck
    p1 = (int(world.dealer) + 1) & 3
    return [deck[i] for i, place in enumerate(_FIRST_DEAL) if (p1 + place) & 3 == seat]


def guessed_five(world: Hand, seat: Seat, rng: random.Random) -> list[Card]:
    """Five of the cards ``seat`` was dealt in ``world``, at random (the taker's exposed card
    left out, dealt to it later): once the contract is made the view no longer tells which
    five came first, and a world built from a view puts any five first."""
    cards = list(world.full_hand(seat))
    if seat == world.taker:
        cards.remove(world.exposed)
    return rng.sample(cards, 5)


def calls_weight(world: Hand, calls: Sequence[Call], rng: random.Random | None = None) -> float:
    """The likelihood of ``calls`` given the cards of their seats in ``world``: the whole
    hand for a double, the first five for a bid. With ``rng``, the first five of a world
    past the bidding are a random five of the seat's (:func:`guessed_five`): the average of
    such weights is the likelihood given what the view knows, where the five the world
    happens to put first would favour some cards over others."""
    weight = 1.0
    exposed = world.exposed
    fives: dict[Seat, list[Card]] = {}
    for call in calls:
        seat = call.action.seat
        if call.phase is Phase.DOUBLING:
            cards = list(world.full_hand(seat))
        else:
            if seat not in fives:
                if rng is not None and world.contract is not None:
                    fives[seat] = guessed_five(world, seat, rng)
                else:
                    fives[seat] = first_five(world, seat)
            cards = fives[seat]
        weight *= call.likelihood(cards, exposed)
    return weight


def call_weight(world: Hand, me: Seat) -> float:
    """The likelihood of every call of the other seats in ``world``, a full deal, given
    their cards there."""
    return calls_weight(world, calls_of(world, me))
