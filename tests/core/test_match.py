"""R13 and the Match API: dealing, rotation, undo across hands, the end of the match."""

from __future__ import annotations

import random

import pytest

from baloot import CardSet, IllegalActionError, Seat, Team
from baloot.core.cards import CARDS
from baloot.core.match import Match, match_winner
from baloot.core.vocabulary import Outcome

DECK = " ".join(c.text for c in CARDS)


def play_out_hand(match: Match, rng: random.Random) -> None:
    hand = match.hand
    while not hand.is_over:
        match.apply(rng.choice(match.legal_actions()))


def test_r13_2_a_team_at_152_with_the_higher_total_wins() -> None:
    assert match_winner((151, 0)) is None
    assert match_winner((152, 151)) is Team.NS
    assert match_winner((100, 160)) is Team.EW


def test_r13_2_equal_totals_at_152_or_more_play_another_hand() -> None:
    assert match_winner((158, 158)) is None


def test_r13_3_gahwa_decides_whatever_the_totals() -> None:
    assert match_winner((0, 0), Team.NS) is Team.NS


def test_r1_4_the_deal_passes_to_the_right_after_every_hand() -> None:
    match = Match.new(rng=random.Random(5), dealer="E")
    players = random.Random(6)
    dealers = [match.hand.dealer]
    for _ in range(3):
        play_out_hand(match, players)
        dealers.append(match.hand.dealer)
    assert dealers == [Seat.E, Seat.N, Seat.W, Seat.S]


def test_r13_1_an_annulled_hand_adds_nothing() -> None:
    match = Match(dealer="E")
    match.deal(DECK)
    for seat in "NWSE":
        match.apply(f"{seat} pass")
    for seat in "NWSE":
        match.apply(f"{seat} pass")
    assert match.results[-1].outcome is Outcome.ANNULLED
    assert match.totals == (0, 0)
    assert match.next_dealer is Seat.N


def test_a_match_without_a_generator_waits_for_each_deck() -> None:
    match = Match(dealer="E")
    assert match.to_act is None and match.legal_actions() == ()
    with pytest.raises(IllegalActionError, match="no hand"):
        _ = match.hand
    match.deal(DECK)
    with pytest.raises(IllegalActionError, match="not over"):
        match.deal(DECK)
    for seat in "NWSENWSE":
        match.apply(f"{seat} pass")
    with pytest.raises(IllegalActionError, match="N deals this hand, not S"):
        match.deal(DECK, dealer=Seat.S)
    with pytest.raises(IllegalActionError, match="no generator"):
        match.deal()
    assert match.deal(DECK, dealer=Seat.N).dealer is Seat.N


def test_undo_across_the_start_of_a_hand_restores_totals_and_the_same_next_deck() -> None:
    match = Match.new(rng=random.Random(9), dealer="E")
    players = random.Random(10)
    play_out_hand(match, players)
    totals, second_deck = match.totals, match.hand.deck
    assert len(match.hands) == 2 and totals != (0, 0)
    last = match.hands[0].actions[-1]
    assert match.undo() == last
    assert len(match.hands) == 1 and match.totals == (0, 0) and not match.hand.is_over
    match.apply(last)
    assert match.totals == totals and match.hand.deck == second_deck


def test_undo_with_nothing_to_undo_is_an_error() -> None:
    match = Match(dealer="E")
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        match.undo()


def test_no_action_after_the_match_is_won() -> None:
    match = Match.new(rng=random.Random(3), dealer="E")
    players = random.Random(4)
    while not match.is_over:
        match.apply(players.choice(match.legal_actions()))
    assert match.winner is not None and match.to_act is None and match.legal_actions() == ()
    assert "won by" in repr(match)
    with pytest.raises(IllegalActionError, match="match is over"):
        match.apply("N pass")
    with pytest.raises(IllegalActionError, match="match is over"):
        match.deal()


def test_a_match_that_starts_decided_deals_nothing() -> None:
    match = Match(rng=random.Random(1), score_before=(160, 20))
    assert match.winner is Team.NS and match.hands == []


def test_each_hand_knows_the_totals_before_it() -> None:
    match = Match.new(rng=random.Random(11), dealer="E")
    players = random.Random(12)
    play_out_hand(match, players)
    assert match.hand.score_before == match.totals
    assert len(CardSet(sum(c.bit for c in match.hand.deck))) == 32


def test_the_totals_after_each_hand_follow_the_results_and_undo() -> None:
    match = Match.new(rng=random.Random(9), dealer="E")
    players = random.Random(10)
    for _ in range(3):
        play_out_hand(match, players)
    running = [(0, 0)]
    for result in match.results:
        score = result.score or (0, 0)
        running.append((running[-1][0] + score[0], running[-1][1] + score[1]))
    assert match.totals_after == tuple(running[1:]) and match.totals == running[-1]
    assert [hand.score_before for hand in match.hands[1:]] == running[1:]
    match.undo()
    assert match.totals_after == tuple(running[1:3]) and match.totals == running[2]


def test_the_totals_after_each_hand_start_from_score_before() -> None:
    match = Match(dealer="E", score_before=(40, 30))
    match.deal(DECK)
    for seat in "NWSE" * 2:
        match.apply(f"{seat} pass")
    assert match.totals_after == ((40, 30),)
