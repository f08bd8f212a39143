"""One daily deal played through the engine's one door: the hand rebuilt from its deck and the
actions kept, South's action checked then applied, the bots' turns decided with seeded
generators, and what the hand came to (``docs/daily.md``).

A daily play is a single hand, not a match, so it does not sit at a server table: a table
deals each hand of a match to 152 from its own secret and the seats' entropy, where a daily
deal's deck is fixed by the day's secret and must be the same for the whole field. The play
is kept as its actions instead, and every request replays them through :meth:`Hand.check
<baloot.core.hand.Hand.check>` and :meth:`Hand.apply <baloot.core.hand.Hand.apply>`.

>>> hand = rebuilt(bytes(32), 1, 0, ())
>>> hand.dealer.name, hand.score_before, hand.to_act.name
('W', (0, 0), 'S')
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from baloot.bots.base import make_bot
from baloot.core.hand import Hand
from baloot.core.rules import PRESETS
from baloot.core.seats import Seat
from baloot.records.summary import contract_json
from baloot.server.players.daily import DEALERS, bot_seed, deal_deck
from baloot.table.players import bot_action
from baloot.view.seat_view import SeatView

#: The seat of the player; the three others are bots.
PLAYER = Seat.S


def rebuilt(secret: bytes, deal: int, instance: int, moves: Sequence[str]) -> Hand:
    """The hand of ``instance`` of ``deal`` with ``moves`` applied, each checked first."""
    hand = Hand.from_deck(
        deal_deck(secret, deal, instance), DEALERS[(deal - 1) % len(DEALERS)], PRESETS["classic"]
    )
    for move in moves:
        hand.apply(hand.check(move))
    return hand


def bots_turns(hand: Hand, secret: bytes, deal: int, bot: str) -> list[str]:
    """The bots' actions until South is to act or the hand is over, applied to ``hand``; each
    bot is made anew with the seed of its seat and the number of actions before it."""
    played = []
    while not hand.is_over and hand.to_act not in (None, PLAYER):
        seat = hand.to_act
        assert seat is not None
        decider = make_bot(bot, random.Random(bot_seed(secret, deal, seat, len(hand.actions))))
        action = bot_action(hand, decider)
        hand.apply(hand.check(action))
        played.append(str(action))
    return played


def south_acts(hand: Hand, text: str) -> str:
    """South's action ``text`` applied to ``hand`` (checked first: an engine error for one
    that is not legal), with the Baloot word announced for it."""
    if hand.to_act is not PLAYER:
        raise ValueError("it is not your turn")
    action = hand.announced(hand.check(text))
    hand.apply(action)
    return str(action.action)


def outcome(hand: Hand) -> tuple[int, Any]:
    """South's team's score less the other team's in the finished ``hand``, and its contract
    as JSON (None for a hand nobody bid)."""
    result = hand.result()
    score = result.score or (0, 0)
    return score[0] - score[1], contract_json(result.contract)


def view_json(hand: Hand) -> dict[str, Any]:
    """What South sees of ``hand`` (``docs/seat-view.md``)."""
    return SeatView.of(hand, PLAYER).to_json()


def seat_hands(hand: Hand, taker: Seat | None) -> dict[str, list[str]]:
    """Each seat's eight cards: as dealt in ``hand`` once its deal was completed, else as they
    would be had ``taker`` taken the exposed card, else (no taker) the first five of each."""
    if hand.taker is not None:
        held = tuple(hand.full_hand(seat) for seat in Seat)
    elif taker is not None:
        held = hand.completed_deal(taker)
    else:
        held = tuple(hand.hand(seat) for seat in Seat)
    return {seat.name: [c.text for c in cards] for seat, cards in zip(Seat, held, strict=True)}
