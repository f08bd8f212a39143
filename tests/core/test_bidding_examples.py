"""rules.md §3.4: bidding (B), Kawesh (K), dealing (DC), doubling (DB) and match (M) examples,
and unit tests of R4–R8 and R13. Dealer E throughout: P1 = N, P2 = W, P3 = S, P4 = E.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import (
    DC_DECK,
    KAWESH_FIVE,
    act,
    assert_illegal,
    bid,
    cardset,
    contract_of,
    count_tricks,
    end_doubling,
    legal_calls,
    new_hand,
    phase_of,
    play_out,
    play_tricks,
    turn,
)

from baloot import Card, CardSet, Hand, Phase, Seat, Suit, Team
from baloot.core.vocabulary import Level, Outcome

NS, EW = Team.NS, Team.EW


def seats_acted(hand: Hand) -> list[str]:
    return [a.seat.name for a in hand.actions]


def all_pass_round1(hand: Hand) -> None:
    act(hand, "N pass", "W pass", "S pass", "E pass")
    assert phase_of(hand) is Phase.BIDDING_ROUND_2


# --------------------------------------------------------------------------- B-examples


def test_B1_sun_over_hokum_goes_to_earliest_seat() -> None:
    hand = new_hand("8s")
    act(hand, "N hokum", "W pass", "S sun")
    assert turn(hand) == Seat.N
    assert legal_calls(hand) == {"N pass", "N sun"}
    act(hand, "N pass")
    assert turn(hand) == Seat.W
    assert legal_calls(hand) == {"W pass", "W sun"}
    act(hand, "W pass")
    assert contract_of(hand) == ("sun", None, Seat.S)
    assert "E" not in seats_acted(hand)
    assert phase_of(hand) is Phase.PLAYING  # no Sun double at 0 / 0 (R8.4)


def test_B2_passer_takes_over_sun() -> None:
    hand = new_hand()
    act(hand, "N pass", "W sun")
    assert turn(hand) == Seat.N
    act(hand, "N sun")
    assert contract_of(hand) == ("sun", None, Seat.N)
    assert seats_acted(hand) == ["N", "W", "N"]


def test_B3_dealer_hokum_confirmed_after_window() -> None:
    hand = new_hand("8s")
    act(hand, "N pass", "W pass", "S pass", "E hokum")
    order = []
    while phase_of(hand) is Phase.BIDDING_ROUND_1:
        to_act = hand.to_act
        assert to_act is not None
        assert legal_calls(hand) == {f"{to_act.name} pass", f"{to_act.name} sun"}
        order.append(to_act.name)
        hand.apply(f"{to_act.name} pass")
    assert order == ["N", "W", "S", "E"]
    assert contract_of(hand) == ("hokum", Suit.SPADES, Seat.E)


def test_B4_earlier_passer_takes_sun_over_hokum() -> None:
    hand = new_hand()
    act(hand, "N pass", "W hokum", "S pass", "E pass")
    assert turn(hand) == Seat.N
    assert legal_calls(hand) == {"N pass", "N sun"}
    act(hand, "N sun")
    assert contract_of(hand) == ("sun", None, Seat.N)


def test_B5_ashkal_partner_takes_exposed_card_and_declares() -> None:
    hand = new_hand("8s")
    act(hand, "N pass", "W pass", "S ashkal")
    assert turn(hand) == Seat.N
    act(hand, "N pass", "W pass")
    assert contract_of(hand) == ("sun", None, Seat.N)
    assert hand.taker == Seat.N
    assert Card.parse("8s") in hand.full_hand(Seat.N)
    assert Card.parse("8s") not in hand.full_hand(Seat.S)


def test_B6_no_ashkal_on_exposed_ace() -> None:
    hand = new_hand("Ad", S="Ks Qh Jd Tc 8c")
    act(hand, "N pass", "W pass")
    assert legal_calls(hand) == {"S pass", "S hokum", "S sun"}
    assert_illegal(hand, "S ashkal", "Ace")


def test_B6_kawesh_offered_with_the_other_calls() -> None:
    hand = new_hand("Ad", S=KAWESH_FIVE)
    act(hand, "N pass", "W pass")
    assert legal_calls(hand) == {"S pass", "S hokum", "S sun", "S kawesh"}


def test_B8_round2_sun_over_hokum2_is_final() -> None:
    hand = new_hand("8s")
    all_pass_round1(hand)
    act(hand, "N pass", "W hokum", "S pass", "E sun")
    assert contract_of(hand) == ("sun", None, Seat.E)
    assert phase_of(hand) is Phase.PLAYING


def test_B9_round2_sun_ends_bidding_at_once() -> None:
    hand = new_hand("8s")
    all_pass_round1(hand)
    act(hand, "N pass", "W pass", "S sun")
    assert contract_of(hand) == ("sun", None, Seat.S)
    assert seats_acted(hand)[4:] == ["N", "W", "S"]


def test_B10_round2_hokum_trump_named_before_completion() -> None:
    hand = new_hand("8s")
    all_pass_round1(hand)
    act(hand, "N hokum", "W pass", "S pass", "E pass")
    assert phase_of(hand) is Phase.TRUMP_NAMING
    assert turn(hand) == Seat.N
    assert legal_calls(hand) == {"N trump h", "N trump d", "N trump c", "N sun"}
    assert len(hand.hand(Seat.N)) == 5 and len(hand.full_hand(Seat.N)) == 0
    assert_illegal(hand, "N trump s", "exposed suit")
    act(hand, "N trump d")
    assert contract_of(hand) == ("hokum", Suit.DIAMONDS, Seat.N)
    assert Card.parse("8s") in hand.full_hand(Seat.N)
    assert phase_of(hand) is Phase.DOUBLING


def test_B11_all_pass_twice_annulled_next_dealer_n() -> None:
    hand = new_hand("8s")
    all_pass_round1(hand)
    act(hand, "N pass", "W pass", "S pass", "E pass")
    assert hand.is_over and hand.to_act is None
    result = hand.result()
    assert result.outcome is Outcome.ANNULLED
    assert result.score == (0, 0)
    assert result.contract is None
    assert hand.next_dealer == Seat.N


# --------------------------------------------------------------------------- K1 (Kawesh)


def test_K1_kawesh_round1_annuls_next_dealer_n() -> None:
    hand = new_hand("8h", W=KAWESH_FIVE)
    act(hand, "N pass")
    assert "W kawesh" in legal_calls(hand)
    act(hand, "W kawesh")
    assert hand.is_over
    assert hand.result().outcome is Outcome.ANNULLED
    assert hand.result().score == (0, 0)
    assert hand.next_dealer == Seat.N


def test_K1_no_kawesh_in_round2() -> None:
    hand = new_hand("8h", W=KAWESH_FIVE)
    all_pass_round1(hand)
    act(hand, "N pass")
    assert "W kawesh" not in legal_calls(hand)
    assert_illegal(hand, "W kawesh", "first round")


@pytest.mark.parametrize("high", ["Ts", "Jd", "Qh", "Kc", "As"])
def test_K1_no_kawesh_with_a_ten_or_higher(high: str) -> None:
    hand = new_hand("8h", W="7s 8s 9h 7d " + high)
    act(hand, "N pass")
    assert "W kawesh" not in legal_calls(hand)
    assert_illegal(hand, "W kawesh")


# --------------------------------------------------------------------------- DC (dealing)


def deck_cards(*numbers: int) -> CardSet:
    """Cards c<n> of DC_DECK (1-based, as in DC1)."""
    words = DC_DECK.split()
    return cardset(" ".join(words[n - 1] for n in numbers))


def test_DC1_deck_mapping_first_deal_and_completion() -> None:
    hand = Hand.from_deck(DC_DECK, "E")
    assert hand.exposed == Card.parse(DC_DECK.split()[20])
    assert hand.hand(Seat.N) == deck_cards(1, 2, 3, 13, 14)
    assert hand.hand(Seat.W) == deck_cards(4, 5, 6, 15, 16)
    assert hand.hand(Seat.S) == deck_cards(7, 8, 9, 17, 18)
    assert hand.hand(Seat.E) == deck_cards(10, 11, 12, 19, 20)
    bid(hand, "S")
    assert contract_of(hand)[2] == Seat.S
    assert hand.full_hand(Seat.N) == deck_cards(1, 2, 3, 13, 14, 22, 23, 24)
    assert hand.full_hand(Seat.W) == deck_cards(4, 5, 6, 15, 16, 25, 26, 27)
    assert hand.full_hand(Seat.S) == deck_cards(7, 8, 9, 17, 18, 21, 28, 29)
    assert hand.full_hand(Seat.E) == deck_cards(10, 11, 12, 19, 20, 30, 31, 32)


def test_DC2_ashkal_by_dealer_partner_takes_exposed_card() -> None:
    hand = Hand.from_deck(DC_DECK, "E")
    act(hand, "N pass", "W pass", "S pass", "E ashkal", "N pass", "W pass", "S pass")
    assert contract_of(hand) == ("sun", None, Seat.W)
    assert hand.full_hand(Seat.N) == deck_cards(1, 2, 3, 13, 14, 22, 23, 24)
    assert hand.full_hand(Seat.W) == deck_cards(4, 5, 6, 15, 16, 21, 25, 26)
    assert hand.full_hand(Seat.S) == deck_cards(7, 8, 9, 17, 18, 27, 28, 29)
    assert hand.full_hand(Seat.E) == deck_cards(10, 11, 12, 19, 20, 30, 31, 32)


def test_DC1_DC2_completed_deal_is_known_before_the_bidding() -> None:
    hand = Hand.from_deck(DC_DECK, "E")
    assert hand.completed_deal(Seat.S) == (
        deck_cards(1, 2, 3, 13, 14, 22, 23, 24),
        deck_cards(4, 5, 6, 15, 16, 25, 26, 27),
        deck_cards(7, 8, 9, 17, 18, 21, 28, 29),
        deck_cards(10, 11, 12, 19, 20, 30, 31, 32),
    )
    assert hand.completed_deal("W") == (
        deck_cards(1, 2, 3, 13, 14, 22, 23, 24),
        deck_cards(4, 5, 6, 15, 16, 21, 25, 26),
        deck_cards(7, 8, 9, 17, 18, 27, 28, 29),
        deck_cards(10, 11, 12, 19, 20, 30, 31, 32),
    )
    assert hand.actions == [] and hand.full_hand(Seat.S) == CardSet()


@pytest.mark.parametrize("dealer", list(Seat))
def test_r7_2_completed_deal_for_every_dealer_and_taker(dealer: Seat) -> None:
    """R3.2 and R7.2 as written: place k after the dealer (P1 = 0) gets cards 3k+1 to 3k+3
    and 13+2k, 14+2k; then from card 22, in order P1 to P4, 3 each but 2 to the taker, who
    also has card 21. The contract made by the taker deals the same."""
    for taker in Seat:
        expected = [CardSet()] * 4
        position = 22
        for place in range(4):
            seat = dealer.after(place + 1)
            count = 2 if seat == taker else 3
            numbers = [3 * place + 1, 3 * place + 2, 3 * place + 3, 13 + 2 * place, 14 + 2 * place]
            numbers += range(position, position + count)
            numbers += [21] if seat == taker else []
            expected[seat] = deck_cards(*numbers)
            position += count
        hand = Hand.from_deck(DC_DECK, dealer)
        assert hand.completed_deal(taker) == tuple(expected), (dealer, taker)
        while hand.taker is None:  # the taker calls Sun at its first turn, the others pass
            speaker = turn(hand)
            assert speaker is not None
            act(hand, f"{speaker.name} {'sun' if speaker == taker else 'pass'}")
        assert hand.taker == taker
        assert tuple(hand.full_hand(seat) for seat in Seat) == tuple(expected)


def test_r3_2_deal_starts_at_the_dealers_right_for_any_dealer() -> None:
    hand = Hand.from_deck(DC_DECK, "N")  # P1 = W, P2 = S, P3 = E, P4 = N
    assert hand.hand(Seat.W) == deck_cards(1, 2, 3, 13, 14)
    assert hand.hand(Seat.N) == deck_cards(10, 11, 12, 19, 20)
    assert turn(hand) == Seat.W


# --------------------------------------------------------------------------- DB (doubling)


def test_DB1_hokum_ladder_each_step_by_its_caller() -> None:
    hand = Hand.from_deck(DC_DECK, "E")
    bid(hand, "E")
    assert phase_of(hand) is Phase.DOUBLING and turn(hand) == Seat.N
    act(hand, "N pass")
    assert turn(hand) == Seat.S
    act(hand, "S double locked")
    c = hand.contract
    assert c is not None and c.level == 2 and c.locked
    assert_illegal(hand, "W triple", "it is E's turn", seat_first=False)
    assert legal_calls(hand) == {"E pass", "E triple"}
    act(hand, "E triple")
    c = hand.contract
    assert c is not None and c.level == 3 and not c.locked
    assert_illegal(hand, "N four open", "it is S's turn", seat_first=False)
    act(hand, "S four open", "E pass")
    c = hand.contract
    assert c is not None
    assert (c.level, c.locked, c.declarer) == (4, False, Seat.E)
    assert phase_of(hand) is Phase.PLAYING
    play_out(hand)
    scoring = hand.result().scoring
    assert scoring is not None and scoring.counting_team == EW


def test_DB3_sun_double_allowed_when_one_team_over_100_other_under() -> None:
    hand = new_hand("8s", score_before=(120, 80))
    act(hand, "N sun")
    assert phase_of(hand) is Phase.DOUBLING
    assert turn(hand) == Seat.W
    assert legal_calls(hand) == {"W double", "W pass"}
    act(hand, "W double")
    c = hand.contract
    assert c is not None and c.level == 2
    assert phase_of(hand) is Phase.PLAYING  # Sun: no Triple


def test_DB4_no_sun_double_when_other_team_has_100() -> None:
    hand = new_hand("8s", score_before=(120, 100))
    act(hand, "N sun")
    assert phase_of(hand) is Phase.PLAYING
    assert turn(hand) == Seat.N


# --------------------------------------------------------------------------- M (match, R13)

# Dealer E, E bids Hokum and fails: NS 101 / EW 61 card points → NS write 16, EW 0.
M1_DECK = (
    "Tc Kh Jd Qh 9c 9s 7s 8d As 8h Ah 7h 7d Ac 9d 9h Kc Jc 8s Ad "
    "Qc Qd Jh Js Kd Qs Ks 7c Th Ts 8c Td"
)
M1_ACTIONS = [
    "N pass",
    "W pass",
    "S pass",
    "E hokum",
    "N pass",
    "W pass",
    "S pass",
    "E pass",
    "N pass",
    "S pass",
]
M1_PLAY = [
    "N: Js Ks As 8s",
    "S: Th 8h Kh Qh",
    "S: Jc 8c Ac 9c",
    "S: 7c Qc Tc Qs",
    "N: Jh 9h Kc 7h",
    "S: 8d Td Jd 9d",
    "E: Ad 7d Kd Ts",
    "E: Ah Qd 9s 7s",
]
# Dealer E, N bids Hokum (♣) with two Siras and makes it: NS 82 / EW 80 → 12 / 8.
M3_DECK = (
    "Jc Jh Kd Th 8s Qs Qd Ad 9d 9s 7d Ts Qh Kh 7c As 9c Kc Ah 9h "
    "Qc Td Tc Js 8c 7s Jd 8d Ks Ac 7h 8h"
)
M3_ACTIONS = ["N hokum", "W pass", "S pass", "E pass", "N pass", "W pass", "E pass"]
M3_PLAY = [
    "N: Jc 7c 9c Ac",
    "N: Qc 8c Kc 7h",
    "S: Ks Ts Tc Js",
    "N: Kd 8s 9d 7d",
    "N: Qh Th Qd 9h",
    "W: Qs Ad 9s Jh",
    "W: 7s 8d 8h Kh",
    "W: As Jd Ah Td",
]


def match_module() -> Any:
    return pytest.importorskip("baloot.core.match")


def play_match_hand(
    match: Any,
    deck: str,
    calls: list[str],
    tricks: list[str],
    declare: dict[str, str] | None = None,
) -> Hand:
    hand: Hand = match.deal(deck)
    for call in calls:
        match.apply(call)
    # Play through the match so that it scores the hand.
    pending = dict(declare or {})
    for trick in tricks:
        leader, _, played = trick.partition(":")
        who = Seat[leader.strip()]
        for card in played.split():
            if hand.trick_number == 0 and who.name in pending:
                match.apply(f"{who.name} declare {pending.pop(who.name)}")
            match.apply(f"{who.name} play {card}")
            who = who.next
    assert hand.is_over
    return hand


def test_M1_reaching_152_with_higher_total_wins() -> None:
    mod = match_module()
    match = mod.Match(score_before=(140, 150))
    hand = play_match_hand(match, M1_DECK, M1_ACTIONS, M1_PLAY)
    assert count_tricks(hand)[1] == (101, 61)
    assert hand.result().score == (16, 0)
    assert match.totals == (156, 150)
    assert match.winner == NS
    assert match.is_over


def test_M3_equal_totals_over_152_play_another_hand() -> None:
    mod = match_module()
    match = mod.Match(score_before=(146, 150))
    hand = play_match_hand(match, M3_DECK, M3_ACTIONS, M3_PLAY, {"N": "sira sira"})
    assert count_tricks(hand)[1] == (82, 80)
    assert hand.result().score == (12, 8)
    assert match.totals == (158, 158)
    assert match.winner is None
    assert not match.is_over
    assert match.next_dealer == Seat.N
    following = match.deal(DC_DECK)
    assert following.dealer == Seat.N
    assert following.score_before == (158, 158)


def test_r13_1_annulled_hand_adds_nothing_and_deal_passes() -> None:
    mod = match_module()
    match = mod.Match(score_before=(10, 20))
    match.deal(DC_DECK)
    for call in ["N pass", "W pass", "S pass", "E pass"] * 2:
        match.apply(call)
    assert match.totals == (10, 20)
    assert match.next_dealer == Seat.N


def test_r13_3_gahwa_ends_match_whatever_the_totals() -> None:
    mod = match_module()
    match = mod.Match(score_before=(0, 0))
    hand: Hand = match.deal(M1_DECK)
    for call in [
        "N pass",
        "W pass",
        "S pass",
        "E hokum",
        "N pass",
        "W pass",
        "S pass",
        "E pass",
        "N double open",
        "E triple",
        "N four open",
        "E gahwa",
    ]:
        match.apply(call)
    for trick in M1_PLAY:
        leader, _, played = trick.partition(":")
        who = Seat[leader.strip()]
        for card in played.split():
            match.apply(f"{who.name} play {card}")
            who = who.next
    assert hand.is_over
    # NS (counting team at Gahwa) took 101 → 10 > 6: NS win the hand and the match.
    assert hand.result().gahwa_winner == NS
    assert match.winner == NS


# --------------------------------------------------------------------------- R4–R8 unit tests


def test_r4_1_first_speaker_calls() -> None:
    hand = new_hand("8s")
    assert phase_of(hand) is Phase.BIDDING_ROUND_1
    assert turn(hand) == Seat.N
    assert legal_calls(hand) == {"N pass", "N hokum", "N sun"}


def test_r4_1_no_second_hokum_in_round1() -> None:
    hand = new_hand("8s")
    act(hand, "N hokum")
    assert legal_calls(hand) == {"W pass", "W sun"}
    assert_illegal(hand, "W hokum", "Hokum")


def test_r4_1_hokum_trump_is_exposed_suit() -> None:
    hand = new_hand("9d")
    bid(hand, "W")
    assert contract_of(hand) == ("hokum", Suit.DIAMONDS, Seat.W)


def test_r4_3_sun_by_p1_stands_at_once() -> None:
    hand = new_hand("8s")
    act(hand, "N sun")
    assert contract_of(hand) == ("sun", None, Seat.N)


def test_r4_3_window_answers_are_only_sun_or_pass() -> None:
    hand = new_hand("8h", N=KAWESH_FIVE)
    act(hand, "N pass", "W sun")
    assert legal_calls(hand) == {"N pass", "N sun"}
    assert_illegal(hand, "N hokum")
    assert_illegal(hand, "N kawesh")


def test_r4_3_first_acceptor_wins_later_window_seats_not_asked() -> None:
    hand = new_hand("8s")
    act(hand, "N hokum", "W pass", "S pass", "E sun", "N pass", "W sun")
    assert contract_of(hand) == ("sun", None, Seat.W)
    assert seats_acted(hand) == ["N", "W", "S", "E", "N", "W"]


def test_r4_3_ashkal_taken_over_is_an_ordinary_sun() -> None:
    hand = new_hand("8s")
    act(hand, "N pass", "W pass", "S ashkal", "N pass", "W sun")
    assert contract_of(hand) == ("sun", None, Seat.W)
    assert Card.parse("8s") in hand.full_hand(Seat.W)


def test_r4_4_seats_after_hokum_bidder_not_asked_again() -> None:
    hand = new_hand("8s")
    act(hand, "N pass", "W hokum", "S pass", "E pass")
    assert turn(hand) == Seat.N
    act(hand, "N pass")
    assert turn(hand) == Seat.W  # the bidder's confirm; S and E are not asked again
    act(hand, "W pass")
    assert contract_of(hand) == ("hokum", Suit.SPADES, Seat.W)


def test_r4_4_hokum_bidder_may_switch_to_sun() -> None:
    hand = new_hand("8s")
    act(hand, "N hokum", "W pass", "S pass", "E pass")
    assert turn(hand) == Seat.N
    assert legal_calls(hand) == {"N pass", "N sun"}
    act(hand, "N sun")
    assert contract_of(hand) == ("sun", None, Seat.N)


def test_r4_4_later_seat_sun_over_hokum_offers_bidder_too() -> None:
    hand = new_hand("8s")
    act(hand, "N pass", "W hokum", "S pass", "E sun")
    assert turn(hand) == Seat.N
    act(hand, "N pass")
    assert turn(hand) == Seat.W
    act(hand, "W sun")
    assert contract_of(hand) == ("sun", None, Seat.W)


def test_r4_5_all_pass_goes_to_round2() -> None:
    hand = new_hand("8s")
    all_pass_round1(hand)
    assert turn(hand) == Seat.N
    assert legal_calls(hand) == {"N pass", "N hokum", "N sun"}


def test_r4_6_ashkal_only_for_p3_and_p4() -> None:
    hand = new_hand("8s")
    assert "N ashkal" not in legal_calls(hand)
    assert_illegal(hand, "N ashkal", "Ashkal")
    act(hand, "N pass")
    assert "W ashkal" not in legal_calls(hand)
    act(hand, "W pass")
    assert "S ashkal" in legal_calls(hand)
    act(hand, "S pass")
    assert "E ashkal" in legal_calls(hand)


def test_r4_6_ashkal_only_after_passes() -> None:
    hand = new_hand("8s")
    act(hand, "N hokum", "W pass")
    assert "S ashkal" not in legal_calls(hand)
    assert_illegal(hand, "S ashkal", "Ashkal")


def test_r4_6_ashkal_not_on_exposed_ace() -> None:
    hand = new_hand("As")
    act(hand, "N pass", "W pass", "S pass")
    assert "E ashkal" not in legal_calls(hand)
    assert_illegal(hand, "E ashkal", "Ace")


def test_r4_6_no_ashkal_in_round2() -> None:
    hand = new_hand("8s")
    all_pass_round1(hand)
    act(hand, "N pass", "W pass")
    assert "S ashkal" not in legal_calls(hand)
    assert_illegal(hand, "S ashkal", "second round")


def test_r5_1_round2_calls_and_no_second_hokum2() -> None:
    hand = new_hand("8s")
    all_pass_round1(hand)
    act(hand, "N pass", "W hokum")
    assert legal_calls(hand) == {"S pass", "S sun"}
    assert_illegal(hand, "S hokum")


def test_r5_2_round2_passer_cannot_take_sun() -> None:
    hand = new_hand("8s")
    all_pass_round1(hand)
    act(hand, "N pass", "W pass", "S pass", "E sun")
    assert contract_of(hand) == ("sun", None, Seat.E)
    assert seats_acted(hand)[4:] == ["N", "W", "S", "E"]


def test_r5_3_hokum2_bidder_may_name_sun() -> None:
    hand = new_hand("8s")
    all_pass_round1(hand)
    act(hand, "N pass", "W hokum", "S pass", "E pass", "W sun")
    assert contract_of(hand) == ("sun", None, Seat.W)


def test_r6_1_kawesh_also_after_a_hokum() -> None:
    hand = new_hand("8h", W=KAWESH_FIVE)
    act(hand, "N hokum", "W kawesh")
    assert hand.is_over and hand.result().outcome is Outcome.ANNULLED


def test_r6_1_kawesh_never_after_a_sun() -> None:
    hand = new_hand("8h", S=KAWESH_FIVE)
    act(hand, "N pass", "W sun")
    act(hand, "N pass")
    assert contract_of(hand)[0] == "sun"


def test_r1_4_next_dealer_after_a_played_hand() -> None:
    hand = new_hand("8s")
    act(hand, "N sun")
    play_out(hand)
    assert hand.result().outcome is Outcome.PLAYED
    assert hand.next_dealer == Seat.N


def test_r8_2_double_offered_to_second_opponent_after_first_passes() -> None:
    hand = new_hand("8s")
    bid(hand, "N")
    assert turn(hand) == Seat.W
    act(hand, "W pass")
    assert turn(hand) == Seat.E
    assert legal_calls(hand) == {"E double open", "E double locked", "E pass"}
    act(hand, "E double open")
    assert turn(hand) == Seat.N  # the declarer; W (doubler's partner) is never asked
    act(hand, "N triple")
    assert turn(hand) == Seat.E
    act(hand, "E pass")
    c = hand.contract
    assert c is not None and c.level == 3
    assert phase_of(hand) is Phase.PLAYING


def test_r8_2_partners_never_escalate() -> None:
    hand = new_hand("8s")
    bid(hand, "N")
    act(hand, "W double open")
    assert_illegal(hand, "S triple", "it is N's turn", seat_first=False)
    act(hand, "N triple")
    assert_illegal(hand, "E four open", "it is W's turn", seat_first=False)


def test_r8_2_gahwa_by_declarer_ends_ladder_open() -> None:
    hand = new_hand("8s")
    bid(hand, "N")
    act(hand, "W double locked", "N triple", "W four locked")
    c = hand.contract
    assert c is not None and c.level == 4 and c.locked
    assert legal_calls(hand) == {"N gahwa", "N pass"}
    act(hand, "N gahwa")
    c = hand.contract
    assert c is not None and c.level is Level.GAHWA and not c.locked
    assert phase_of(hand) is Phase.PLAYING


def test_r8_2_pass_ends_ladder() -> None:
    hand = new_hand("8s")
    bid(hand, "N")
    act(hand, "W double open", "N pass")
    c = hand.contract
    assert c is not None and c.level == 2
    assert phase_of(hand) is Phase.PLAYING


def test_r8_3_double_must_say_open_or_locked_in_hokum() -> None:
    hand = new_hand("8s")
    bid(hand, "N")
    assert_illegal(hand, "W double", "open or locked")


def test_r8_4_sun_double_is_bare() -> None:
    hand = new_hand("8s", score_before=(120, 80))
    act(hand, "N sun")
    assert_illegal(hand, "W double open", "Sun", seat_first=False)
    act(hand, "W pass")
    assert turn(hand) == Seat.E
    act(hand, "E pass")
    c = hand.contract
    assert c is not None and c.level == 1
    assert phase_of(hand) is Phase.PLAYING


@pytest.mark.parametrize(
    ("totals", "allowed"),
    [
        ((120, 80), True),  # declarers over, doublers under
        ((80, 120), True),  # the other way round
        ((101, 99), True),
        ((120, 100), False),  # 100 is not under 100
        ((100, 50), False),  # 100 is not over 100
        ((150, 120), False),  # both over
        ((40, 60), False),  # both under
    ],
)
def test_r8_4_sun_double_condition_either_side(totals: tuple[int, int], allowed: bool) -> None:
    hand = new_hand("8s", score_before=totals)
    act(hand, "N sun")
    assert (phase_of(hand) is Phase.DOUBLING) is allowed


def test_r8_1_no_double_after_first_card() -> None:
    hand = Hand.from_deck(DC_DECK, "E")
    bid(hand, "E")
    end_doubling(hand)
    assert phase_of(hand) is Phase.PLAYING
    assert_illegal(hand, "N double open")


def test_r9_play_cannot_start_during_bidding() -> None:
    hand = new_hand("8s")
    assert_illegal(hand, "N play 9c", "before the play")


def test_r7_1_played_card_must_be_held_after_completion() -> None:
    hand = Hand.from_deck(DC_DECK, "E")
    bid(hand, "S")
    end_doubling(hand)
    play_tricks(hand, [])
    assert len(hand.hand(Seat.S)) == 8 and Card.parse("Jd") in hand.hand(Seat.S)
