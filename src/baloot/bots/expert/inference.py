"""What the calls and the plays of the other seats make likely about their hidden cards.

The world sampler deals the unseen cards consistently with everything *proven* (voids,
declared projects, the exposed card...). What the other seats *chose* is evidence too: a
seat that passed a Hokum in the exposed suit rarely holds its J and 9, a Sun bidder holds
Aces, a doubler holds trumps. Each sampled world gets an importance weight, the likelihood
of the others' calls given their cards in that world (:func:`call_weight`) times that of a
few telling plays (:func:`play_weight`); :func:`weighted_worlds` draws a pool and keeps the
likely ones by systematic resampling, deterministically for the generator.

The likelihood of a call is a soft threshold on the hand values of
:mod:`baloot.bots.heuristic.values` (any sound player bids on much the same strength):
``EPSILON + (1 - EPSILON) * sigmoid(SLOPE * margin)``, where the margin is how far the
value lies above the usual threshold for that call (below, for a pass).

>>> round(likelihood(0.0), 2), round(likelihood(5.0), 2), round(likelihood(-5.0), 2)
(0.54, 0.98, 0.1)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Final

from baloot.bots.heuristic.tuning import Thresholds
from baloot.bots.heuristic.values import (
    JACK,
    NINE,
    defence_value,
    hokum_value,
    sun_value,
)
from baloot.core._play import play_mask
from baloot.core.actions import Action, Verb
from baloot.core.cards import PLAIN_STRENGTH, TRUMP_STRENGTH, Card, Suit
from baloot.core.errors import BalootError
from baloot.core.hand import Hand
from baloot.core.seats import Seat
from baloot.core.vocabulary import Phase, QuestionKind
from baloot.view.seat_view import SeatView

#: Floor of a call's likelihood: players do make odd calls.
EPSILON: Final = 0.08
#: How sharply the likelihood of a call rises with its margin, per point of hand value.
SLOPE: Final = 0.7
#: Value taken off a Hokum suit that lacks its J and 9 or a second card.
NO_HOKUM_SUIT: Final = 3.0
#: Likelihood of a follow that gave points away when a cheaper card of the suit was held
#: and the trick was lost (players keep their points for themselves).
WASTED_POINTS: Final = 0.55

_T: Final = Thresholds()
_BIDDING: Final = frozenset({Phase.BIDDING_ROUND_1, Phase.BIDDING_ROUND_2, Phase.BIDDING_ROUND_3})
_PLAIN_POINTS: Final = (11, 4, 3, 2, 10, 0, 0, 0)
_TRUMP_POINTS: Final = (11, 4, 3, 20, 10, 14, 0, 0)


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


def _call_margins(hand: Hand, seat: Seat, legal: Sequence[Action]) -> dict[Verb, float]:
    """For each call open to ``seat`` now, how far its hand lies above that call's threshold."""
    cards = list(hand.hand(seat))
    verbs = {a.verb for a in legal}
    margins: dict[Verb, float] = {}
    phase = hand.phase
    exposed = hand.exposed
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
    contract = hand.contract
    if phase is not Phase.DOUBLING or contract is None:
        return margins
    trump = contract.trump
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


def call_likelihood(hand: Hand, action: Action) -> float:
    """How likely the seat to act in ``hand`` makes the call ``action``, given its cards."""
    seat = action.seat
    legal = hand.legal_actions()
    question = hand.question
    if (
        question is not None
        and question.kind in (QuestionKind.TAKE_OVER_SUN, QuestionKind.TAKE_OVER_ASHKAL)
        and question.about is not None
        and question.about.team == seat.team
    ):
        return 1.0  # nobody takes a call from the partner: the answer tells nothing
    if hand.phase is Phase.TRUMP_NAMING:
        return _naming_likelihood(hand, action, legal)
    margins = _call_margins(hand, seat, legal)
    if not margins:
        return 1.0
    if action.verb is Verb.PASS:
        return likelihood(-max(margins.values()))
    margin = margins.get(action.verb)
    return 1.0 if margin is None else likelihood(margin)


def _naming_likelihood(hand: Hand, action: Action, legal: Sequence[Action]) -> float:
    """The trump named (or Sun instead) against the best of the other choices."""
    six = [*hand.hand(action.seat), hand.exposed]
    worth: dict[Action, float] = {}
    for option in legal:
        if option.suit is not None:
            worth[option] = hokum_strength(six, option.suit) - _T.hokum_bid
        elif option.verb is Verb.SUN:
            worth[option] = sun_value(six) - _T.sun_bid
    if action not in worth or len(worth) < 2:
        return 1.0
    best_other = max(v for a, v in worth.items() if a != action)
    return likelihood(worth[action] - best_other)


def call_weight(world: Hand, me: Seat) -> float:
    """The likelihood of every call of the other seats (bidding and doubling) in ``world``, a
    full deal, given their cards there: the auction is replayed on the world's deck."""
    replay = Hand.from_deck(list(world.deck), world.dealer, world.rules, world.score_before)
    weight = 1.0
    for action in world.actions:
        if action.verb is Verb.PLAY or action.verb is Verb.DECLARE:
            break
        if action.seat != me:
            weight *= call_likelihood(replay, action)
        replay.apply(action)
    return weight


def play_weight(world: Hand, me: Seat) -> float:
    """The likelihood of a few telling plays of the other seats in ``world``: a seat that
    followed suit to a trick the other side was winning, with a card worth points that did
    not take the lead, while a cheaper card of the suit was legal for it, would usually have
    kept its points: :data:`WASTED_POINTS` for each such play."""
    contract = world.contract
    if contract is None:
        return 1.0
    trump = -1 if contract.trump is None else int(contract.trump)
    rules = world.rules
    plays_so_far = [0, 0, 0, 0]
    full = [world.full_hand(s).mask for s in Seat]
    weight = 1.0
    for trick in world.tricks():
        lead = trick.plays[0]
        cards = [c.index for c in trick.cards]
        win_seat, win_card = int(lead.seat), cards[0]
        for play, card in zip(trick.plays[1:], cards[1:], strict=False):
            s = int(play.seat)
            opponent_winning = bool((win_seat ^ s) & 1)
            before = tuple(cards[: cards.index(card)])
            if s != me and opponent_winning and card >> 3 == cards[0] >> 3:
                points = _points(card, trump)
                new_seat, _ = _beat(win_seat, win_card, s, card, trump)
                if points and new_seat != s:
                    held = full[s] & ~plays_so_far[s]
                    legal = play_mask(
                        held,
                        before,
                        True,
                        win_card,
                        lead.ekka,
                        trump,
                        contract.locked,
                        rules.partner_led_must_trump,
                        rules.must_undertrump,
                    )
                    if any(
                        legal >> c & 1 and c >> 3 == card >> 3 and _points(c, trump) < points
                        for c in range(32)
                    ):
                        weight *= WASTED_POINTS
            win_seat, win_card = _beat(win_seat, win_card, s, card, trump)
        for play, card in zip(trick.plays, cards, strict=True):
            plays_so_far[play.seat] |= 1 << card
    return weight


def _points(card: int, trump: int) -> int:
    return (_TRUMP_POINTS if card >> 3 == trump else _PLAIN_POINTS)[card & 7]


def _beat(win_seat: int, win_card: int, seat: int, card: int, trump: int) -> tuple[int, int]:
    """Who wins the trick, and with what, after ``seat`` plays ``card`` (R9.2)."""
    if card >> 3 == win_card >> 3:
        table = TRUMP_STRENGTH if card >> 3 == trump else PLAIN_STRENGTH
        if table[card & 7] > table[win_card & 7]:
            return seat, card
        return win_seat, win_card
    if card >> 3 == trump:
        return seat, card
    return win_seat, win_card


Weigh = Callable[[Hand], float]


def weighted_worlds(
    draw: Callable[[random.Random], Hand],
    weigh: Weigh,
    rng: random.Random,
    count: int,
    pool: int,
) -> list[tuple[Hand, int]]:
    """``count`` worlds kept by systematic resampling from ``pool`` worlds that ``draw``
    makes, in proportion to their ``weigh``; each distinct world once, with how many of the
    ``count`` places it took. Worlds that ``draw`` cannot make are skipped."""
    drawn: list[tuple[Hand, float]] = []
    for _ in range(max(pool, count)):
        try:
            world = draw(rng)
        except BalootError:
            continue
        drawn.append((world, weigh(world)))
    if not drawn:
        return []
    total = sum(w for _, w in drawn)
    if total <= 0:
        return [(world, 1) for world, _ in drawn[:count]]
    step = total / count
    mark = rng.random() * step
    kept: list[tuple[Hand, int]] = []
    running = 0.0
    for world, w in drawn:
        running += w
        taken = 0
        while mark < running and len(kept) + taken < count + 1:
            taken += 1
            mark += step
        if taken:
            kept.append((world, taken))
    return kept


def view_worlds_weigh(view: SeatView) -> Weigh:
    """The importance weight of a world for ``view``'s seat: its calls and telling plays."""
    me = view.seat
    assert me is not None
    playing = view.phase is Phase.PLAYING

    def weigh(world: Hand) -> float:
        weight = call_weight(world, me)
        if playing:
            weight *= play_weight(world, me)
        return weight

    return weigh
