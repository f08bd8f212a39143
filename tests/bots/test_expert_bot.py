"""The expert bot: legal and reproducible whatever the flags, what it infers from the others'
calls and plays, its budget options, match equity, and how it fares in small seeded arenas.

Budgets are kept tiny (a few worlds and deals a decision) so that the file runs in seconds;
docs/expert.md has the figures of the real budgets.
"""

from __future__ import annotations

import itertools
import math
import random
import statistics

import pytest
from helpers import act, bid, build_deck, end_doubling, hokum_hand, new_hand, play_tricks

from baloot import Hand, Phase, Rules, Seat, Suit, Verb
from baloot.bots import play_hand
from baloot.bots.arena import ArenaConfig, run_arena
from baloot.bots.base import make_bot, registered
from baloot.bots.best_hints import BestHints
from baloot.bots.expert import ExpertBot, PlayMode, SearchBudget
from baloot.bots.expert.bidding import CallValue, best_call
from baloot.bots.expert.calls import (
    call_likelihood,
    call_weight,
    calls_of,
    calls_weight,
    likelihood,
)
from baloot.bots.expert.equity import equity
from baloot.bots.expert.follows import play_weight
from baloot.bots.expert.inference import view_worlds_weigh, weighted_worlds
from baloot.bots.expert.support import WorldSampler
from baloot.bots.names import UnknownBotError
from baloot.core.actions import Action
from baloot.view.seat_view import SeatView
from baloot.words.hints import hint_lines

TINY = {"samples": "2", "deals": "3", "pool": "2"}


def tiny(seed: int) -> ExpertBot:
    return ExpertBot(random.Random(seed), TINY)


def view_of(hand: Hand) -> SeatView:
    seat = hand.to_act
    assert seat is not None
    return SeatView.of(hand, seat)


# --------------------------------------------------------------------------- legal, reproducible


def test_it_plays_only_legal_actions_whatever_the_flags() -> None:
    flags = random.Random(7)
    for seed in range(6):
        rules = Rules.random(flags)
        hand = Hand.new(rng=random.Random(seed), rules=rules, dealer=Seat(seed % 4))
        bots = {seat: tiny(seed * 4 + int(seat)) for seat in Seat}
        play_hand(hand, bots)  # a BotError would say which action was not legal


def test_the_same_seed_gives_the_same_actions() -> None:
    def actions(seed: int) -> list[str]:
        hand = Hand.new(rng=random.Random(3))
        bots = {seat: tiny(seed + int(seat)) for seat in Seat}
        return [str(a) for a in play_hand(hand, bots).actions]

    assert actions(11) == actions(11)


def test_evaluate_values_every_legal_action_in_each_phase() -> None:
    hand = Hand.new(rng=random.Random(5))
    bot = tiny(1)
    seen: set[Phase] = set()
    while not hand.is_over:
        view, legal = view_of(hand), hand.legal_actions()
        if len(legal) > 1 and hand.phase not in seen:
            values = bot.evaluate(view, legal)
            assert set(values) == set(legal)
            assert all(isinstance(v, float) for v in values.values())
            seen.add(hand.phase)
        hand.apply(hand.announced(bot.choose(view, legal)))
    assert {Phase.BIDDING_ROUND_1, Phase.PLAYING} <= seen


def test_in_trick_1_it_declares_the_most_it_may() -> None:
    hand = hokum_hand(
        {
            "N": "Ah Kh Qh Jh 7s 8s 9d 7c",
            "W": "As Ks Qs 8h 9h Td 8d 8c",
            "S": "Js Ts 9s 7h Ad Kd Qd Ac",
            "E": "Th Jd 7d Kc Qc Jc Tc 9c",
        },
        exposed="7h",
        declarer="S",
    )
    legal = hand.legal_actions()
    declares = [a for a in legal if a.verb is Verb.DECLARE]
    assert declares
    assert tiny(2).choose(view_of(hand), legal) == Action.parse("N declare fifty")


# --------------------------------------------------------------------------- inference


def test_sampled_worlds_honour_a_void_shown_by_not_following() -> None:
    hand = hokum_hand(
        {
            "N": "Ah Kh Qh 7h 7s 8s 9d 7c",
            "W": "As Ks Qs Js Ts Td 8d 8c",
            "S": "Jh 9s 8h 9h Ad Kd Qd Ac",
            "E": "Th 9c 7d Kc Qc Jc Tc Jd",
        },
        exposed="9h",
        declarer="S",
    )
    play_tricks(hand, ["N: Ah Td 8h Th"])  # W shows no hearts and, N winning, no trumps due
    view = SeatView.of(hand, Seat.S)
    sampler = WorldSampler(view)
    rng = random.Random(3)
    worlds = weighted_worlds(sampler.worlds(rng, 24), view_worlds_weigh(view, rng), rng, 12)
    assert worlds
    for world, count in worlds:
        assert count >= 1
        assert not world.hand(Seat.W).mask & Suit.HEARTS.mask
        assert world.hand(Seat.S) == hand.hand(Seat.S)


def test_a_pass_makes_a_strong_hokum_in_the_exposed_suit_unlikely() -> None:
    strong = new_hand(exposed="8h", N="Jh 9h Ah Th As")
    weak = new_hand(exposed="8h", N="7s 8s 9d 7c 8c")
    assert call_likelihood(strong, Action.parse("N pass")) < 0.2
    assert call_likelihood(weak, Action.parse("N pass")) > 0.8
    act(strong, "N pass")
    act(weak, "N pass")
    assert call_weight(strong, Seat.S) < call_weight(weak, Seat.S)
    assert call_weight(strong, Seat.N) == call_weight(weak, Seat.N) == 1.0  # its own calls


def test_a_sun_bid_makes_aces_likely() -> None:
    aces = new_hand(exposed="8h", N="As Ad Ac Td Kc")
    none = new_hand(exposed="8h", N="7s 8s 9d Qc 8c")
    assert call_likelihood(aces, Action.parse("N sun")) > 0.9
    assert call_likelihood(none, Action.parse("N sun")) < 0.15


def test_likelihoods_rise_with_the_margin_and_never_reach_zero() -> None:
    margins = [-10.0, -3.0, 0.0, 3.0, 10.0]
    values = [likelihood(m) for m in margins]
    assert values == sorted(values)
    assert 0 < values[0] < 0.1 and values[-1] < 1


def test_giving_points_away_when_a_cheaper_card_was_legal_is_unlikely() -> None:
    hands = {
        "N": "As 7s 8s 7h 9d 7c 8c 9c",
        "W": "Ks Qs Jh 9h 8d 7d Qc Jc",
        "S": "Ts 9s Ah Kh Ad Td Ac Tc",
        "E": "Js 8h Th Qh Kd Qd Jd Kc",
    }
    hand = Hand.from_deck(build_deck(hands, taker="S", exposed="Kh"), "E")
    bid(hand, "S", "sun")
    end_doubling(hand)
    play_tricks(hand, ["N: As Ks Ts Js"])  # W gives K♠ to N's A♠ while holding Q♠
    assert play_weight(hand, Seat.S) < 1.0
    assert play_weight(hand, Seat.W) == 1.0  # a seat's own plays tell it nothing


def test_resampling_keeps_the_likely_worlds() -> None:
    drawn = [(Hand.new(rng=random.Random(seed)), 1 + seed % 3) for seed in range(40)]
    hearts = sum(n for world, n in drawn if world.exposed.suit is Suit.HEARTS)
    kept = weighted_worlds(
        drawn, lambda h: 1.0 if h.exposed.suit is Suit.HEARTS else 0.0, random.Random(1), 8
    )
    assert sum(count for _, count in kept) == 8 and hearts < sum(n for _, n in drawn)
    assert all(world.exposed.suit is Suit.HEARTS for world, _ in kept)


# --------------------------------------------------------------------------- calls


def test_another_call_overrules_the_usual_one_only_when_sure() -> None:
    usual, other = Action.parse("N pass"), Action.parse("N sun")
    noisy = {
        usual: CallValue(0.0, 0.50, (0.5, 0.4, 0.6, 0.5)),
        other: CallValue(1.0, 0.52, (0.6, 0.3, 0.7, 0.5)),
    }
    sure = {
        usual: CallValue(0.0, 0.50, (0.5, 0.4, 0.6, 0.5)),
        other: CallValue(4.0, 0.56, (0.56, 0.47, 0.65, 0.56)),
    }
    legal = [usual, other]
    assert best_call(noisy, legal, usual) == usual
    assert best_call(sure, legal, usual) == other
    assert best_call(noisy, legal) == other


def test_kawesh_is_taken_over_a_hand_of_sevens_eights_and_nines() -> None:
    hand = new_hand(exposed="As", N="7s 8s 9h 7d 8c")
    legal = hand.legal_actions()
    assert Action.parse("N kawesh") in legal
    assert tiny(3).choose(view_of(hand), legal) == Action.parse("N kawesh")


# --------------------------------------------------------------------------- budget, equity


def test_budget_options_and_their_errors() -> None:
    assert SearchBudget.of({"fast": "", "samples": "9"}).samples == 9
    assert SearchBudget.of({"mode": "score"}).mode is PlayMode.SCORE
    with pytest.raises(UnknownBotError, match="has no option 'fast2'"):
        SearchBudget.of({"fast2": ""})
    with pytest.raises(UnknownBotError, match="mode takes points, score, auto"):
        make_bot("expert:mode=best", random.Random(1))
    with pytest.raises(UnknownBotError, match="samples takes a whole number from 1"):
        ExpertBot(random.Random(1), {"samples": "0"})


def test_match_equity_follows_the_totals() -> None:
    assert equity(0, 0) == pytest.approx(0.5)
    assert equity(100, 80) > equity(80, 80) > equity(80, 100)
    assert equity(151, 0) > 0.99 and equity(0, 151) < 0.01
    assert equity(160, 150) == 1.0 and equity(150, 160) == 0.0
    for ours in range(0, 152, 19):
        for theirs in range(0, 152, 23):
            assert equity(ours, theirs) + equity(theirs, ours) == pytest.approx(1.0, abs=1e-9)


# --------------------------------------------------------------------------- small arenas


def test_it_beats_random_and_holds_its_own_against_heuristic() -> None:
    with registered({"tiny-expert": lambda rng, options: tiny(rng.randrange(1 << 30))}):
        against_random = run_arena(
            ArenaConfig("tiny-expert", "random", pairs=3, seed=2, hands=True)
        )
        against_heuristic = run_arena(
            ArenaConfig("tiny-expert", "heuristic", pairs=6, seed=2, hands=True)
        )
    assert against_random.points_per_hand()[0] > 5
    assert against_heuristic.points_per_hand()[0] > -4


# --------------------------------------------------------------------------- the hint


def test_the_hint_is_the_experts_action_worded_in_both_languages() -> None:
    hand = Hand.new(rng=random.Random(12))
    bots = {seat: tiny(int(seat)) for seat in Seat}
    worded = 0
    while not hand.is_over:
        view, legal = view_of(hand), hand.legal_actions()
        if len(legal) > 1:
            hint = BestHints(random.Random(5), TINY).explain(view, legal)
            assert hint.action == ExpertBot(random.Random(5), TINY).choose(view, legal)
            assert hint.why
            for lang in ("en", "ar"):
                assert all(line and "{" not in line for line in hint_lines(hint, lang))
            worded += 1
        seat = hand.to_act
        assert seat is not None
        hand.apply(hand.announced(bots[seat].choose(view, legal)))
    assert worded >= 4


def test_past_the_bidding_a_bids_weight_averages_over_which_five_came_first() -> None:
    """A world built from a view puts some five of a seat's cards first; the weight of its
    bids must be the mean over every five it may have been dealt first, not that one five."""
    hand = Hand.new(rng=random.Random(0), dealer=Seat.W)
    bots = {seat: make_bot("heuristic", random.Random(int(seat))) for seat in Seat}
    while (seat := hand.to_act) is not None and hand.phase is not Phase.PLAYING:
        hand.apply(bots[seat].choose(SeatView.of(hand, seat), hand.legal_actions()))
    calls = calls_of(hand, Seat.S)
    seat = next(c.action.seat for c in calls if c.action.seat != hand.taker)
    bids = [c for c in calls if c.action.seat == seat and c.phase is not Phase.DOUBLING]
    cards = list(hand.full_hand(seat))
    fives = list(itertools.combinations(cards, 5))
    exact = statistics.fmean(
        math.prod(c.likelihood(list(five), hand.exposed) for c in bids) for five in fives
    )
    rng = random.Random(2)
    estimate = statistics.fmean(calls_weight(hand, bids, rng) for _ in range(4000))
    spread = statistics.pstdev(
        math.prod(c.likelihood(list(five), hand.exposed) for c in bids) for five in fives
    )
    assert spread > 0.2  # the five that came first matters much for this seat
    assert abs(estimate - exact) < 4 * spread / math.sqrt(4000)
