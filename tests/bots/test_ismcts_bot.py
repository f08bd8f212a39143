"""The ISMCTS bot: legal and reproducible whatever the flags, its options, and how it fares in
a small seeded arena. Budgets are tiny so that the file runs in seconds."""

from __future__ import annotations

import random

import pytest

from baloot import Hand, Phase, Rules, Seat
from baloot.bots import play_hand
from baloot.bots.arena import ArenaConfig, run_arena
from baloot.bots.base import make_bot, registered
from baloot.bots.ismcts import IsmctsBot, TreeBudget
from baloot.bots.names import UnknownBotError
from baloot.view.seat_view import SeatView

TINY = {"iterations": "60", "worlds": "6", "deals": "3"}


def tiny(seed: int) -> IsmctsBot:
    return IsmctsBot(random.Random(seed), TINY)


def test_it_plays_only_legal_actions_whatever_the_flags() -> None:
    flags = random.Random(9)
    for seed in range(6):
        hand = Hand.new(rng=random.Random(seed), rules=Rules.random(flags), dealer=Seat(seed % 4))
        # A BotError would say which action was not legal.
        play_hand(hand, {seat: tiny(seed * 4 + int(seat)) for seat in Seat})


def test_the_same_seed_gives_the_same_actions() -> None:
    def actions(seed: int) -> list[str]:
        hand = Hand.new(rng=random.Random(4))
        return [str(a) for a in play_hand(hand, {s: tiny(seed + int(s)) for s in Seat}).actions]

    assert actions(5) == actions(5)


def in_trick_3() -> Hand:
    """The first seeded hand the heuristic bots bid, played by them to the third trick."""
    helper = make_bot("heuristic", random.Random(0))
    for seed in range(20):
        hand = Hand.new(rng=random.Random(seed))
        while not hand.is_over and (hand.phase is not Phase.PLAYING or hand.trick_number < 2):
            seat = hand.to_act
            assert seat is not None
            legal = hand.legal_actions()
            hand.apply(hand.announced(helper.choose(SeatView.of(hand, seat), legal)))
        if not hand.is_over:
            return hand
    raise AssertionError("no hand was bid")


def test_its_card_is_a_legal_one() -> None:
    hand = in_trick_3()
    seat = hand.to_act
    assert seat is not None
    view, legal = SeatView.of(hand, seat), hand.legal_actions()
    card = tiny(1).best_card(view, legal)
    assert card in {a.card.index for a in legal if a.card is not None}


def test_options_and_their_errors() -> None:
    assert TreeBudget.of({"fast": ""}).iterations < TreeBudget().iterations
    assert TreeBudget.of({"iterations": "7", "explore": "0.3"}) == TreeBudget(
        iterations=7, explore=0.3
    )
    with pytest.raises(UnknownBotError, match="has no option 'depth'"):
        make_bot("ismcts:depth=3", random.Random(1))
    with pytest.raises(UnknownBotError, match="greedy takes a number from 0 to 1"):
        make_bot("ismcts:greedy=2", random.Random(1))


def test_it_beats_random() -> None:
    with registered({"tiny-ismcts": lambda rng, options: tiny(rng.randrange(1 << 30))}):
        summary = run_arena(ArenaConfig("tiny-ismcts", "random", pairs=3, seed=4, hands=True))
    assert summary.points_per_hand()[0] > 5
