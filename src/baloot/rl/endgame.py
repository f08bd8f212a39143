"""The last tricks searched exactly: each card's value averaged over the worlds that agree
with what the seat has seen, each solved double dummy.

Late in a hand few deals of the unseen cards remain, and the solver plays each of them out in
microseconds: where the network guesses, the search knows. The worlds come from the bots'
world sampler (:class:`~baloot.bots.worlds.WorldSampler`, honouring everything the history
proves, every world alike likely); ``draws`` random guesses are made and each distinct world
is solved once and weighs the same, so that with few worlds left every one is found and the
average is exact, while with more the draws bound the time. Values are the hand's written score for
the seat's team (:func:`baloot.solver.values`), in game points, as the network's are.

>>> import random
>>> from baloot.core.hand import Hand
>>> from baloot.view.seat_view import SeatView
>>> hand = Hand.new(rng=random.Random(3))
>>> while hand.trick_number < 6:
...     _ = hand.apply(hand.legal_actions()[-1])
>>> view = SeatView.of(hand, hand.to_act)
>>> found = card_values(view, hand.legal_actions(), random.Random(1), draws=16)
>>> list(found) == list(hand.legal_actions())
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Final

from baloot.bots.worlds import InconsistentWorldError, WorldSampler
from baloot.core.actions import Action
from baloot.core.cards import Card, CardSet, Rank
from baloot.core.seats import Seat
from baloot.solver import world_values
from baloot.view.seat_view import SeatView

#: The most tricks left for which the endgame may be searched, and the most draws of worlds:
#: the bounds of the bot's options, so that no choice of them makes a decision slow.
MOST_TRICKS: Final = 3
MOST_DRAWS: Final = 64


def card_values(
    view: SeatView, legal: Sequence[Action], rng: random.Random, draws: int
) -> dict[Action, float] | None:
    """Each legal card's value, averaged over the distinct worlds of ``draws`` random guesses
    of the unseen cards; None when no world could be drawn (or in the first trick, whose
    declarations are not searched here)."""
    if view.trick_number == 0:
        return None
    sampler = WorldSampler(view)
    guesses: dict[tuple[int, ...], Mapping[Seat, CardSet]] = {}
    for _ in range(draws):
        try:
            drawn = sampler.sample(rng)
        except InconsistentWorldError:
            break
        guesses.setdefault(tuple(cards.mask for _, cards in sorted(drawn.items())), drawn)
    if not guesses:
        return None
    # Only Baloot is scored from who holds a card: worlds that place the King and Queen of
    # trumps alike are one hand's stakes, solved from that hand with the cards swapped.
    trump = view.trump
    baloot = () if trump is None else (Card(trump, Rank.KING), Card(trump, Rank.QUEEN))
    groups: dict[tuple[Seat | None, ...], list[Mapping[Seat, CardSet]]] = {}
    for guess in guesses.values():
        key = tuple(
            next((s for s, cards in guess.items() if card in cards), None) for card in baloot
        )
        groups.setdefault(key, []).append(guess)
    totals = dict.fromkeys(legal, 0.0)
    for group in groups.values():
        hands = [_masks(view, guess) for guess in group]
        for solved in world_values(sampler.world_of(group[0]), hands):
            for action in legal:
                totals[action] += solved[action]
    return {action: total / len(guesses) for action, total in totals.items()}


def _masks(view: SeatView, guess: Mapping[Seat, CardSet]) -> tuple[int, int, int, int]:
    """Every seat's cards in a guess, as masks (N, W, S, E)."""
    hands = {seat: cards.mask for seat, cards in guess.items()}
    assert view.seat is not None
    hands[view.seat] = view.cards.mask
    return hands[Seat.N], hands[Seat.W], hands[Seat.S], hands[Seat.E]
