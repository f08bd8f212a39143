"""What one seat can infer in the play about the cards the others still hold.

Each other seat may hold any card this seat has not seen, minus what the rules prove it does
not hold: the engine states those facts (a suit it did not follow, trumps it did not play
when R9.4 made it trump or over-trump, the exposed card in its taker's hand, the projects
shown by another seat…) in the view's ``known``
(:class:`~baloot.core.knowledge.Knowledge`), under the variant flags in force.

>>> import random
>>> from baloot.core.hand import Hand
>>> hand = Hand.new(rng=random.Random(1))
>>> for _ in range(3):
...     _ = hand.apply(hand.legal_actions()[0])
>>> known = read_inference(SeatView.of(hand, hand.to_act))
>>> known.possible[known.me]
0
"""

from __future__ import annotations

from dataclasses import dataclass

from baloot.bots.heuristic.values import KING, QUEEN, points
from baloot.core.cards import PLAIN_ABOVE, TRUMP_ABOVE, Card, Suit
from baloot.core.seats import Seat
from baloot.view.seat_view import SeatView


@dataclass(slots=True)
class Inference:
    """What this seat knows in the play: its cards and, for each other seat, the cards it
    may still hold (the unseen cards minus what its earlier plays ruled out)."""

    me: Seat
    trump: Suit | None
    tmask: int
    mine: int
    possible: tuple[int, int, int, int]
    ours: bool  # True if this seat's team declared

    def opponents(self) -> tuple[Seat, Seat]:
        return (self.me.next, self.me.after(3))

    def opp_possible(self) -> int:
        a, b = self.opponents()
        return self.possible[a] | self.possible[b]

    def can_beat(self, seat: Seat, card: Card, led: Suit) -> bool:
        """True if ``seat`` may hold a card that beats ``card`` (winning a trick led in
        ``led``): a higher card of its suit, or a trump when it is surely void in ``led``."""
        held = self.possible[seat]
        if card.suit == self.trump:
            if led != self.trump and held & led.mask:
                # It probably follows suit, so it cannot over-ruff.
                return False
            return bool(held & TRUMP_ABOVE[card.index])
        if held & PLAIN_ABOVE[card.index]:
            return True
        return bool(self.tmask and held & self.tmask and not held & led.mask)

    def master(self, card: Card) -> bool:
        """True if no opponent may hold a card of its suit that beats it."""
        above = TRUMP_ABOVE if card.suit == self.trump else PLAIN_ABOVE
        return not self.opp_possible() & above[card.index]

    def baloot_pair(self) -> int:
        """The mask of the King and Queen of trumps (0 in Sun)."""
        trump = self.trump
        if trump is None:
            return 0
        return Card(trump, KING).bit | Card(trump, QUEEN).bit

    def future(self, card: Card) -> float:
        """What keeping ``card`` is worth to this seat's side for the rest of the hand, in card
        points (rule P9): trumps most, then sure winners, then honours that may still win;
        low cards little, a Hokum singleton less (its discard makes a void)."""
        trump = self.trump
        pts = points(card, trump)
        suit_cards = (self.mine & card.suit.mask).bit_count()
        if card.suit == trump:
            value = 10.0 + 2 * pts
            pair = self.baloot_pair()
            if card.rank in (KING, QUEEN) and self.mine & pair == pair:
                value += 4  # keep the Baloot pair together
            return value
        higher = (self.opp_possible() & PLAIN_ABOVE[card.index]).bit_count()
        if higher == 0:
            if pts:
                return pts + (4.0 if trump is not None else 8.0)
            return 1.0  # a small master card still wins a trick later
        if pts == 0:
            short = trump is not None and suit_cards == 1 and self.mine & self.tmask
            return -0.5 if short else 0.1 * suit_cards
        guards = suit_cards - 1
        chance = 0.5 if guards >= higher else 0.15
        return chance * (pts + 8) - (1 - chance) * pts * 0.5


def seat_of(view: SeatView) -> Seat:
    """The bot's own seat: a bot always plays from a seat's view, never a spectator's."""
    if view.seat is None:
        raise ValueError("a bot needs a seat's view, not a spectator's")
    return view.seat


def read_inference(view: SeatView) -> Inference:
    """Which cards each other seat may still hold: the unseen cards minus those the engine's
    knowledge of that seat excludes."""
    trump = view.trump
    me = seat_of(view)
    unseen = view.unseen.mask
    known = view.known
    possible = tuple(0 if s == me else unseen & ~known[s].excluded.mask for s in Seat)
    contract = view.contract
    return Inference(
        me,
        trump,
        trump.mask if trump is not None else 0,
        view.cards.mask,
        (possible[0], possible[1], possible[2], possible[3]),
        contract is not None and contract.declarer.team == me.team,
    )
