"""rules.md §3.2: legal play (L-examples) and Ekka validity (E-examples), plus unit tests of R9.

Every position is a real hand: the deck deals the cards, N bids (Hokum in the exposed suit,
trump ♥, or Sun), the earlier tricks are played, and the test checks that each seat holds
exactly the cards of the example before the trick of the example is played.
"""

from __future__ import annotations

import pytest
from helpers import act, assert_illegal, ekka_plays, legal_plays, names, position, turn

from baloot import Card, Hand, IllegalActionError, Rules, Seat

# Positions of the L-examples. The cards of the example are in ``now``; the other seats' cards
# are free and chosen so that nothing else decides the trick. ``earlier`` are whole tricks.

L1_NOW = {"N": "Kc 9s 7d", "W": "7c Ks 9d", "S": "Qh As 8d", "E": "Ac 8s Td"}
L1_EARLIER = [
    "N: 9h Ah 7h Kh",
    "N: 8h Ad Jh Kd",
    "S: Th Qc Jd Qd",
    "S: 9c Tc Jc 8c",
    "E: Js Ts Qs 7s",
]
# L15/L16: N leads four tricks with the best card of the suit, everyone follows.
LOCK_NOW = {"N": "Jh 9h As 7c", "W": "Ah Th Ts 9c", "S": "Kh Qh 8s 8c", "E": "8h 7h 7s Jc"}
LOCK_EARLIER = ["N: Ac Tc Kc Qc", "N: Ad Td Kd Qd", "N: Jd 9d 8d 7d", "N: Ks Qs Js 9s"]


def l1_position() -> Hand:
    hand = position(L1_NOW, L1_EARLIER)
    act(hand, "N play Kc", "W play 7c")
    return hand


def test_L1_partner_led_non_ace_must_trump() -> None:
    hand = l1_position()
    assert turn(hand) == Seat.S
    assert legal_plays(hand) == names("Qh")
    assert_illegal(hand, "S play As", "trump")
    assert_illegal(hand, "S play 8d")
    hand.apply("S play Qh")


def test_L1b_partner_led_non_ace_any_trump() -> None:
    hand = position(
        {"N": "Kc 9s 7d 8s", "W": "7c Ks 9d Js", "S": "Qh 7h As 8d", "E": "Ac Qs Td Jd"},
        ["N: Kh Jh 9h 7s", "W: 8h Th Ad Ts", "S: Ah Qd Kd 9c", "S: Qc 8c Tc Jc"],
    )
    act(hand, "N play Kc", "W play 7c")
    assert legal_plays(hand) == names("Qh 7h")
    assert_illegal(hand, "S play As")


def test_L2_valid_ekka_frees_partner() -> None:
    hand = position(
        {"N": "Tc 9s 7d", "W": "7c Ks 9d", "S": "Qh As 8d", "E": "Kc 8s Td"},
        [
            "N: Kh 9h Ah Jh",
            "E: Ad Qd Kd Jd",
            "E: 8c 9c Ac Jc",  # A♣ gone: 10♣ is now the best club
            "W: Js Ts 7s Qs",
            "S: 7h Qc Th 8h",
        ],
    )
    assert turn(hand) == Seat.N
    assert ekka_plays(hand) == names("Tc")
    act(hand, "N play Tc ekka", "W play 7c")
    assert legal_plays(hand) == names("Qh As 8d")


def test_L3_partner_led_ace_frees() -> None:
    hand = position(
        {"N": "Ac 9s 7d", "W": "7c Ks 9d", "S": "Qh As 8d", "E": "Kc 8s Td"},
        L1_EARLIER,
    )
    act(hand, "N play Ac", "W play 7c")
    assert legal_plays(hand) == names("Qh As 8d")


def test_L4_must_over_trump_opponent() -> None:
    hand = position(
        {"N": "Kc 9s 7d", "W": "8h Ks 9d", "S": "Qh 7h As", "E": "Ac 8s Td"},
        ["N: Jc 8c 9c Tc", "E: Qc 7c Jh Kd", "W: Js Qs Ts 7s", "E: 9h Th Kh Ah", "E: Jd Ad 8d Qd"],
    )
    act(hand, "N play Kc", "W play 8h")
    assert legal_plays(hand) == names("Qh")
    assert_illegal(hand, "S play 7h", "over-trump")
    assert_illegal(hand, "S play As")


L5_NOW = {"N": "Kc 9s 7d", "W": "9h Ks 9d", "S": "Qh 7h As", "E": "Ac 8s Td"}
L5_EARLIER = [
    "N: Tc Qc 7c 8c",
    "N: Ah Jh Th 9c",
    "W: 7s Ts Js Qs",
    "S: 8h Jc Qd Kh",
    "W: Kd 8d Jd Ad",
]


def test_L5_cannot_over_trump_any_card() -> None:
    hand = position(L5_NOW, L5_EARLIER)
    act(hand, "N play Kc", "W play 9h")
    assert legal_plays(hand) == names("Qh 7h As")


def test_L5_must_undertrump_variant() -> None:
    hand = position(L5_NOW, L5_EARLIER, rules=Rules(must_undertrump=True))
    act(hand, "N play Kc", "W play 9h")
    assert legal_plays(hand) == names("Qh 7h")
    assert_illegal(hand, "S play As")


def test_L6_partner_winning_fourth_seat_free() -> None:
    hand = position(
        {"N": "Ts 7d 9c", "W": "As 9d 8c", "S": "7s Td Tc", "E": "Jh 8d Kc"},
        ["N: 8h Ac Kh 9h", "E: Ah 7h Jc Qh", "E: Th 7c 8s Qc", "E: Jd Kd Ad Qd", "W: 9s Js Qs Ks"],
    )
    act(hand, "N play Ts", "W play As", "S play 7s")
    assert turn(hand) == Seat.E
    assert legal_plays(hand) == names("Jh 8d Kc")


def test_L7_opponent_winning_with_side_card_must_trump() -> None:
    hand = position(
        {"N": "Qd 9s 8c", "W": "7h As Kc", "S": "Td 7s 7c", "E": "Jd 8s 9c"},
        ["N: Th Ah Jh Qh", "S: 8h 9h Kd Kh", "E: Ac Jc Qc Tc", "E: Ad 7d 8d 9d", "E: Ks Ts Js Qs"],
    )
    act(hand, "N play Qd")
    assert legal_plays(hand) == names("7h")
    assert_illegal(hand, "W play As", "trump")


def test_L8_trump_led_must_beat_ace() -> None:
    hand = position(
        {"N": "Ah 9s 8c 7d", "W": "Jh Th 7h As", "S": "Ks Qs 8d 7c", "E": "Js Ts 9d 9c"},
        ["N: Kh 9h Jc 8s", "W: Jd Kd Ad Qd", "E: Kc Tc Ac Qc", "W: 8h Td 7s Qh"],
    )
    act(hand, "N play Ah")
    assert legal_plays(hand) == names("Jh")
    assert_illegal(hand, "W play Th", "higher than Ah")
    assert_illegal(hand, "W play As")


def test_L9_opponent_winning_trump_must_beat_it() -> None:
    hand = position(
        {"N": "Th 9s 8c", "W": "9h Ks 9d", "S": "Jh Kh 8s", "E": "Ah 7s 9c"},
        ["N: 7d Jd Qd Kd", "E: Ac Tc Kc 7c", "E: Jc Qc 8h Qh", "S: Td 7h Ad 8d", "E: Js As Qs Ts"],
    )
    act(hand, "N play Th", "W play 9h")
    assert legal_plays(hand) == names("Jh")
    assert_illegal(hand, "S play Kh")


def test_L10_trump_led_partner_winning_any_trump() -> None:
    hand = position(
        {"N": "7h 9s 8c", "W": "Jh Ks 9d", "S": "8h 7s Tc", "E": "9h Qh As"},
        ["N: 7c Jc Kc Kh", "E: Ad Jd 8d Th", "S: Ac Ah 9c Td", "E: 7d Kd Qd Qc", "N: Ts 8s Js Qs"],
    )
    act(hand, "N play 7h", "W play Jh", "S play 8h")
    assert legal_plays(hand) == names("9h Qh")
    assert_illegal(hand, "E play As")


def test_L11_cannot_beat_trump_any_trump() -> None:
    hand = position(
        {"N": "Jh 9s 8d", "W": "9h 7h Kc", "S": "Qs Ks 8c", "E": "Ts 7s 9c"},
        ["N: 8h Th Kh Ac", "W: Qh Qd As Ah", "N: Qc Jc 7c Tc", "E: Jd 7d Ad 9d", "W: Kd Js 8s Td"],
    )
    act(hand, "N play Jh")
    assert legal_plays(hand) == names("9h 7h")
    assert_illegal(hand, "W play Kc")


def test_L12_trump_led_no_trump_held_any_card() -> None:
    hand = position(
        {"N": "8h 9s 8d", "W": "As Kc Td", "S": "Ah Ks 8c", "E": "Th 7s 9c"},
        ["N: Kd Qd Qh 7d", "S: Jc Ac 7c Tc", "E: Qs 8s Ts Js", "W: Ad Jh Qc Jd", "S: 7h Kh 9h 9d"],
    )
    act(hand, "N play 8h")
    assert legal_plays(hand) == names("As Kc Td")


def test_L14_sun_follow_suit() -> None:
    hand = position(
        {"N": "Td 9s 8c", "W": "Ad 7d As", "S": "Kh Ks Qc", "E": "9h 7s 9c"},
        ["N: Jh 7h Qh 8h", "S: 8d Ac Qd 9d", "N: Js Qs 8s Ts", "E: 7c Tc Jc Kc", "N: Kd Jd Th Ah"],
        contract="sun",
    )
    act(hand, "N play Td")
    assert legal_plays(hand) == names("Ad 7d")
    assert_illegal(hand, "W play As", "follow diamonds")


def test_L14b_sun_void_any_card() -> None:
    hand = position(
        {"N": "Td 9s 8c", "W": "As Kc 9h", "S": "Kd Ks Qc", "E": "9d 7s 9c"},
        ["N: Qh 8h 7h Th", "E: Jc Tc 7c Ac", "S: Ah Ad Kh Jh", "S: Ts Qs Js 8s", "S: 7d Jd Qd 8d"],
        contract="sun",
    )
    act(hand, "N play Td")
    assert legal_plays(hand) == names("As Kc 9h")


def test_L15_locked_no_trump_lead_with_side_cards() -> None:
    hand = position(LOCK_NOW, LOCK_EARLIER, doubling=["W double locked"])
    contract = hand.contract
    assert contract is not None and contract.locked
    assert turn(hand) == Seat.N
    assert legal_plays(hand) == names("As 7c")
    assert_illegal(hand, "N play Jh", "locked")


def test_L15b_locked_only_trumps_may_lead_trump() -> None:
    hand = position(
        {"N": "Jh 9h", "W": "Ah Th", "S": "Kh Qh", "E": "8h 7h"},
        [*LOCK_EARLIER, "N: As Ts 8s 7s", "N: Jc 9c 8c 7c"],
        doubling=["W double locked"],
    )
    assert legal_plays(hand) == names("Jh 9h")


def test_L16_open_any_lead() -> None:
    hand = position(LOCK_NOW, LOCK_EARLIER)
    contract = hand.contract
    assert contract is not None and not contract.locked
    assert legal_plays(hand) == names("Jh 9h As 7c")


# --------------------------------------------------------------------------- Ekka (R9.5)

# E1/E3: trick 1 is N's A♣ (E1) or A♦ then 10♦ (E3); N leads trick 2.
E1_NOW = {
    "N": "Tc Kc Jh As Ad 7s 8d",
    "W": "Qc Jc 9h Ks Kd 9d 7d",
    "S": "Ah Th Kh Qs Js Qd Jd",
    "E": "Qh 8h 7h Ts 9s 8s Td",
}
# E1 before trick 1 (8 cards each).
E1_TRICK1 = {"N": "Ac", "W": "7c", "S": "8c", "E": "9c"}
E1_FULL = {name: E1_NOW[name] + " " + E1_TRICK1[name] for name in "NWSE"}
E3_NOW = {
    "N": "Ac Kd Jh 9s 8s 7c 9d",
    "W": "Qd Jd Kc Qc Ks Qs 9h",
    "S": "Ah Th Kh Js Ts Jc Tc",
    "E": "Qh 8h 7h As 7s 9c 8c",
}


def test_E1_ekka_valid_on_best_unplayed_card_only() -> None:
    hand = position(E1_NOW, ["N: Ac 7c 8c 9c"])
    assert turn(hand) == Seat.N
    assert ekka_plays(hand) == names("Tc")
    reason = assert_illegal(hand, "N play Kc ekka", "Ekka")
    assert "Tc" in reason  # the 10♣ is unplayed, even though N holds it
    hand.apply("N play Tc ekka")
    assert hand.current_trick == [(Seat.N, Card.parse("Tc"))]


def test_E2_ekka_invalid_while_ace_out_then_partner_must_trump() -> None:
    hand = position(L1_NOW, L1_EARLIER)  # 10♣ gone in trick 4; E still holds A♣
    assert ekka_plays(hand) == set()
    assert_illegal(hand, "N play Kc ekka", "Ekka", "Ac")
    act(hand, "N play Kc", "W play 7c")
    assert legal_plays(hand) == names("Qh")


def test_E3_ekka_not_on_ace_not_on_trump() -> None:
    hand = position(E3_NOW, ["N: Ad Td 7d 8d"])
    assert turn(hand) == Seat.N
    assert ekka_plays(hand) == names("Kd")  # A♦ and 10♦ gone
    assert_illegal(hand, "N play Ac ekka", "Ekka", "Ace")
    assert_illegal(hand, "N play Jh ekka", "Ekka", "trump")
    hand.apply("N play Kd ekka")


def test_E3_no_ekka_in_sun() -> None:
    hand = position(E3_NOW, ["N: Ad Td 7d 8d"], contract="sun")
    assert turn(hand) == Seat.N
    assert ekka_plays(hand) == set()
    with pytest.raises(IllegalActionError) as info:
        hand.apply("N play Kd ekka")
    assert "Ekka" in info.value.reason
    hand.apply("N play Kd")


def test_E_ekka_never_in_trick_one() -> None:
    hand = position(E1_FULL)
    assert ekka_plays(hand) == set()
    assert_illegal(hand, "N play Ac ekka", "Ekka")


# --------------------------------------------------------------------------- R9 unit tests


def test_r9_1_p1_leads_first_trick_whoever_declares() -> None:
    hand = position(E1_FULL, [], declarer="S")
    contract = hand.contract
    assert contract is not None and contract.declarer == Seat.S
    assert turn(hand) == Seat.N
    assert hand.trick_number == 0


def test_r9_2_trump_beats_led_suit_and_winner_leads() -> None:
    hand = position(L5_NOW, L5_EARLIER)
    act(hand, "N play Kc", "W play 9h", "S play As", "E play Ac")
    assert turn(hand) == Seat.W  # W's 9♥ beat the A♣ of the led suit
    assert hand.trick_number == 6


def test_r9_2_side_suit_ten_beats_king() -> None:
    hand = position(
        {"N": "Ks 8d 9c", "W": "7s 9d 8c", "S": "8s Td Tc", "E": "Ts Jd Jc"},
        ["N: Kd Ad Qd 7d", "W: 7c Qc Kc Ac", "N: Kh Ah Qh Jh", "E: 7h 9h As Th", "N: 8h 9s Js Qs"],
    )
    act(hand, "N play Ks", "W play 7s", "S play 8s", "E play Ts")
    assert turn(hand) == Seat.E


def test_r9_4_c_side_suit_held_any_card_of_it_no_trumping() -> None:
    hand = position(
        {"N": "9s Tc 7d", "W": "Ks 7c 9d", "S": "Qh Js 8s", "E": "Kc 7s Td"},
        ["N: Jc Qc Ac 8c", "S: Qd Kd 8d Jd", "E: Ah Jh 9c 7h", "N: 8h Ts 9h Qs", "S: Kh Ad Th As"],
    )
    act(hand, "N play 9s", "W play Ks")
    assert legal_plays(hand) == names("Js 8s")
    assert_illegal(hand, "S play Qh", "follow spades")


def test_r9_5_ekka_never_relaxes_following_suit() -> None:
    hand = position(
        {"N": "Tc 9s 7d", "W": "7c Ks 9d", "S": "Qh Jc 8d", "E": "Kc 8s Td"},
        ["N: Qd Jd Ad Kd", "S: Kh Jh 8h Ah", "E: Ac Qc 9c 8c", "E: Qs 7s As Ts", "W: Th 7h Js 9h"],
    )
    act(hand, "N play Tc ekka", "W play 7c")
    assert legal_plays(hand) == names("Jc")
    assert_illegal(hand, "S play Qh", "follow clubs")


def test_r9_4_illegal_card_not_held() -> None:
    hand = l1_position()
    assert_illegal(hand, "S play Jh", "does not hold")


def test_r9_4_wrong_seat_names_seat_to_act() -> None:
    hand = l1_position()
    with pytest.raises(IllegalActionError) as info:
        hand.apply("E play Ac")
    assert info.value.reason == "it is S's turn"
