"""What the plays of the other seats make likely about their cards: a seat that followed suit
to a trick the other side was winning, with a card worth points that did not take the lead,
while a cheaper card of the suit was legal for it, would usually have kept its points.

What such a follow depends on besides the seat's hidden cards is public, so it is read once
(:func:`follows_of`) and weighed for each world (:func:`follows_weight`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from baloot.core.cards import PLAIN_POINTS, TRUMP_POINTS
from baloot.core.hand import Hand
from baloot.core.play_rules import beats, play_mask
from baloot.core.seats import Seat

#: Likelihood of a follow that gave points away when a cheaper card of the suit was legal
#: (players keep their points for themselves).
WASTED_POINTS: Final = 0.55


@dataclass(frozen=True, slots=True)
class Follow:
    """A follow that gave points to the other side: what the seat could have played instead
    depends on its hidden cards, the rest is public."""

    seat: int
    before: tuple[int, ...]
    win_card: int
    ekka: bool
    gone: int  # the cards the seat played before this trick
    cheaper: int  # the cards of the suit worth fewer points than the one it played


def follows_of(world: Hand, me: Seat) -> tuple[Follow, ...]:
    """The telling follows of the other seats in ``world``'s play so far (see
    :func:`play_weight`)."""
    contract = world.contract
    if contract is None:
        return ()
    trump = -1 if contract.trump is None else int(contract.trump)
    played = [0, 0, 0, 0]
    found = []
    for trick in world.tricks():
        lead = trick.plays[0]
        cards = [c.index for c in trick.cards]
        win_seat, win_card = int(lead.seat), cards[0]
        for place in range(1, len(cards)):
            s, card = int(trick.plays[place].seat), cards[place]
            points = _points(card, trump)
            takes = beats(card, win_card, trump)
            if (
                s != me
                and (win_seat ^ s) & 1
                and card >> 3 == cards[0] >> 3
                and points
                and not takes
            ):
                suit = card >> 3
                cheaper = sum(
                    1 << c
                    for c in range(suit * 8, suit * 8 + 8)
                    if c != card and _points(c, trump) < points
                )
                found.append(
                    Follow(s, tuple(cards[:place]), win_card, lead.ekka, played[s], cheaper)
                )
            if takes:
                win_seat, win_card = s, card
        for play, card in zip(trick.plays, cards, strict=True):
            played[play.seat] |= 1 << card
    return tuple(found)


def follows_weight(world: Hand, follows: Sequence[Follow]) -> float:
    """:data:`WASTED_POINTS` for each of ``follows`` where a cheaper card was legal in
    ``world``."""
    contract = world.contract
    if contract is None or not follows:
        return 1.0
    trump = -1 if contract.trump is None else int(contract.trump)
    rules = world.rules
    weight = 1.0
    for follow in follows:
        held = world.full_hand(Seat(follow.seat)).mask & ~follow.gone
        legal = play_mask(
            held,
            follow.before,
            True,
            follow.win_card,
            follow.ekka,
            trump,
            contract.locked,
            rules.partner_led_must_trump,
            rules.must_undertrump,
        )
        if legal & follow.cheaper:
            weight *= WASTED_POINTS
    return weight


def play_weight(world: Hand, me: Seat) -> float:
    """The likelihood of a few telling plays of the other seats in ``world``: a seat that
    followed suit to a trick the other side was winning, with a card worth points that did
    not take the lead, while a cheaper card of the suit was legal for it, would usually have
    kept its points: :data:`WASTED_POINTS` for each such play."""
    return follows_weight(world, follows_of(world, me))


def _points(card: int, trump: int) -> int:
    return (TRUMP_POINTS if card >> 3 == trump else PLAIN_POINTS)[card & 7]
