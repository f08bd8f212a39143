"""rules.md §3.3: projects, Baloot and the comparison (P-examples), and unit tests of R10–R11.

Readings (R10.4) are checked with ``baloot.core.projects.reading``; the comparison and Baloot
through real hands (dealer E, declarer N, explicit ``declare`` actions in trick 1).
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from helpers import cardset, hokum_hand, mask, play_out, shape

from baloot import Hand, IllegalActionError, Project, ProjectKind, Rules, Seat, Team
from baloot.core.projects import reading

NS, EW = Team.NS, Team.EW
SIRA, FIFTY, HUNDRED, FOUR_HUNDRED = (
    ProjectKind.SIRA,
    ProjectKind.FIFTY,
    ProjectKind.HUNDRED,
    ProjectKind.FOUR_HUNDRED,
)
#: R10.3, written out: game points of each project in (Hokum, Sun).
GP = {SIRA: (2, 4), FIFTY: (5, 10), HUNDRED: (10, 20), FOUR_HUNDRED: (None, 40)}


def gp(projects: Iterable[Project], sun: bool) -> int:
    total = 0
    for p in projects:
        value = GP[p.kind][1 if sun else 0]
        assert value is not None
        total += value
    return total


def read(text: str, sun: bool, **flags: bool) -> tuple[Project, ...]:
    return reading(cardset(text).mask, sun, **flags)


# --------------------------------------------------------------------------- readings


def test_P1_sun_four_kings_plus_sira_beats_single_hundred() -> None:
    got = read("As Ks Qs Js Ts Kh Kd Kc", sun=True)
    assert shape(got) == {(HUNDRED, mask("Ks Kh Kd Kc")), (SIRA, mask("Qs Js Ts"))}
    assert gp(got, sun=True) == 24


def test_P2_sun_four_aces_are_four_hundred() -> None:
    got = read("Ah As Ad Ac Kh Ks Kd Kc", sun=True)
    assert shape(got) == {(FOUR_HUNDRED, mask("Ah As Ad Ac")), (HUNDRED, mask("Kh Ks Kd Kc"))}
    assert gp(got, sun=True) == 60


def test_P3_hokum_four_aces_are_a_hundred() -> None:
    got = read("Ah As Ad Ac Kh Ks Kd Kc", sun=False)
    assert shape(got) == {(HUNDRED, mask("Ah As Ad Ac")), (HUNDRED, mask("Kh Ks Kd Kc"))}
    assert gp(got, sun=False) == 20


def test_P5_sun_fifty_and_sira() -> None:
    got = read("Ts 9s 8s 7s Kd Qd Jd 7c", sun=True)
    assert shape(got) == {(FIFTY, mask("Ts 9s 8s 7s")), (SIRA, mask("Kd Qd Jd"))}
    assert gp(got, sun=True) == 14


def test_r10_2_long_run_is_one_hundred_topped_by_highest_card() -> None:
    got = read("Ah Kh Qh Jh Th 9h 8h 7s", sun=False)
    assert shape(got) == {(HUNDRED, mask("Ah Kh Qh Jh Th 9h 8h"))}
    assert got[0].top.name == "ACE"


def test_r10_2_four_nines_eights_sevens_are_nothing() -> None:
    assert read("9h 9s 9d 9c 7h 7s 7d 7c", sun=True) == ()
    assert read("8h 8s 8d 8c As Qh Jd Tc", sun=False) == ()


def test_r10_2_four_tens_are_a_hundred() -> None:
    assert shape(read("Th Ts Td Tc 8h 8s 7d 7c", sun=False)) == {(HUNDRED, mask("Th Ts Td Tc"))}


def test_r10_4_one_card_one_project_best_total() -> None:
    # Q♠ J♠ 10♠ 9♠ (Fifty) or four Queens (Hundred) + J♠ 10♠ 9♠ (Sira): the latter is worth more.
    got = read("Qs Js Ts 9s Qh Qd Qc 7h", sun=False)
    assert shape(got) == {(HUNDRED, mask("Qs Qh Qd Qc")), (SIRA, mask("Js Ts 9s"))}


# --------------------------------------------------------------------------- real hands


# P6: trump ♣; N holds the sequence Hundred Q♦–8♦, W the four Kings; nobody else a project.
P6_HANDS = {
    "N": "Qd Jd Td 9d 8d As 7h 7c",
    "W": "Ks Kh Kd Kc 9s 8h 9c Ad",
    "S": "Qs Js 8s Ah Qh 9h Qc 8c",
    "E": "Ts 7s Jh Th Ac Jc Tc 7d",
}


def test_P6_four_of_a_kind_beats_sequence_hundred() -> None:
    hand = hokum_hand(P6_HANDS, "7c")
    assert shape(hand.projects(Seat.N)) == {(HUNDRED, mask("Qd Jd Td 9d 8d"))}
    assert shape(hand.projects(Seat.W)) == {(HUNDRED, mask("Ks Kh Kd Kc"))}
    assert hand.projects(Seat.S) == () and hand.projects(Seat.E) == ()
    play_out(hand, {"N": "hundred", "W": "hundred"})
    result = hand.result()
    assert shape(result.projects[EW]) == {(HUNDRED, mask("Ks Kh Kd Kc"))}
    assert result.projects[NS] == ()
    assert result.baloot == (0, 0)
    scoring = result.scoring
    assert scoring is not None
    assert scoring.game_points[EW] - scoring.card_game_points[EW] == 10
    assert scoring.game_points[NS] == scoring.card_game_points[NS]


def test_P6_sequence_beats_four_of_a_kind_with_flag() -> None:
    hand = hokum_hand(P6_HANDS, "7c", Rules(hundred_sequence_beats_four_kind=True))
    hand.apply("N declare hundred")
    hand.apply("N play As")
    # W's four Kings are now lower than N's Hundred: declaring them is not allowed (#19).
    with pytest.raises(IllegalActionError) as info:
        hand.apply("W declare hundred")
    assert info.value.reason.startswith("W ")
    play_out(hand)
    result = hand.result()
    assert shape(result.projects[NS]) == {(HUNDRED, mask("Qd Jd Td 9d 8d"))}
    assert result.projects[EW] == ()


# P8: trump ♣. N 10♠ 9♠ 8♠, E 10♦ 9♦ 8♦, S 9♣ 8♣ 7♣ (trumps, but no trump priority).
P8_HANDS = {
    "N": "Ts 9s 8s Ah Kc Qd 7d 9h",
    "W": "Qs Js 7s Kh Qh Kd Jc Tc",
    "S": "9c 8c 7c Ks Th 7h Jd Ad",
    "E": "Td 9d 8d As Jh 8h Ac Qc",
}


def test_P8_equal_projects_earlier_seat_wins_and_team_scores_both() -> None:
    hand = hokum_hand(P8_HANDS, "Kc")
    for name, cards in (("N", "Ts 9s 8s"), ("E", "Td 9d 8d"), ("S", "9c 8c 7c")):
        assert shape(hand.projects(name)) == {(SIRA, mask(cards))}
    assert hand.projects(Seat.W) == ()
    hand.apply("N declare sira")
    hand.apply("N play Ah")
    hand.apply("W play Kh")
    # S's Sira (top 9) is lower than N's (top 10): S may not declare it (#19) …
    with pytest.raises(IllegalActionError):
        hand.apply("S declare sira")
    hand.apply("S play Th")
    # … but an equal one may still be declared, and loses the tie on seat order.
    hand.apply("E declare sira")
    play_out(hand)
    result = hand.result()
    # … and it still scores: the team of the best project scores both players' projects.
    assert shape(result.projects[NS]) == {(SIRA, mask("Ts 9s 8s")), (SIRA, mask("9c 8c 7c"))}
    assert result.projects[EW] == ()
    scoring = result.scoring
    assert scoring is not None
    assert scoring.game_points[NS] - scoring.card_game_points[NS] == 4
    assert scoring.game_points[EW] == scoring.card_game_points[EW]


# P10: trump ♥; N holds K♥ Q♥ J♥ and no other project at the table.
P10_HANDS = {
    "N": "Kh Qh Jh As 9d 7d Tc 8c",
    "W": "Ah 9h Ks Js Ad Qd 9c 7c",
    "S": "Th 8h Qs Ts 8s Kc 8d Jc",
    "E": "9s 7s 7h Kd Jd Td Ac Qc",
}


def test_P10_sira_with_king_queen_of_trumps_scores_plus_baloot() -> None:
    hand = hokum_hand(P10_HANDS, "Kh")
    assert all(hand.projects(s) == () for s in (Seat.W, Seat.S, Seat.E))
    play_out(hand, {"N": "sira"})
    result = hand.result()
    assert shape(result.projects[NS]) == {(SIRA, mask("Kh Qh Jh"))}
    assert result.baloot == (2, 0)
    scoring = result.scoring
    assert scoring is not None
    assert scoring.game_points[NS] - scoring.card_game_points[NS] == 4


# P11: trump ♥; N holds four Kings and Q♥.
P11_HANDS = {
    "N": "Kh Ks Kd Kc Qh 9s 7d 8c",
    "W": "Ah Jh 8h As Qs Ad Qd Tc",
    "S": "Th 9h 7h Js Ts Jd Td Ac",
    "E": "8s 7s 9d 8d Qc Jc 9c 7c",
}


def test_P11_four_kings_shown_no_baloot() -> None:
    hand = hokum_hand(P11_HANDS, "Kh")
    assert shape(hand.projects(Seat.N)) == {(HUNDRED, mask("Kh Ks Kd Kc"))}
    assert all(hand.projects(s) == () for s in (Seat.W, Seat.S, Seat.E))
    play_out(hand, {"N": "hundred"})
    result = hand.result()
    assert shape(result.projects[NS]) == {(HUNDRED, mask("Kh Ks Kd Kc"))}
    assert result.baloot == (0, 0)
    scoring = result.scoring
    assert scoring is not None
    assert scoring.game_points[NS] - scoring.card_game_points[NS] == 10


def test_r11_4_exclusion_only_if_project_shown() -> None:
    # Same hand, N does not declare: no team shows projects, so the Baloot stands (#23).
    hand = hokum_hand(P11_HANDS, "Kh")
    play_out(hand)
    result = hand.result()
    assert result.projects == ((), ())
    assert result.baloot == (2, 0)


def test_r11_4_hundred_sequence_with_king_queen_blocks_baloot() -> None:
    hands = {
        "N": "Ah Kh Qh Jh Th 9s 7d 8c",
        "W": "9h 8h As Qs Ad Qd Tc 7c",
        "S": "7h Js Ts Jd Td Kc 9c 8s",
        "E": "Ks 7s 9d 8d Kd Qc Jc Ac",
    }
    hand = hokum_hand(hands, "Kh")
    assert shape(hand.projects(Seat.N)) == {(HUNDRED, mask("Ah Kh Qh Jh Th"))}
    play_out(hand, {"N": "hundred"})
    result = hand.result()
    assert shape(result.projects[NS]) == {(HUNDRED, mask("Ah Kh Qh Jh Th"))}
    assert result.baloot == (0, 0)


def test_r11_2_baloot_counts_for_defenders_too() -> None:
    # Same deal as P10, but E declares (Hokum ♥): N's Baloot is for NS, no project declared.
    hand = hokum_hand(P10_HANDS, "7h", declarer="E")
    play_out(hand)
    result = hand.result()
    assert result.baloot == (2, 0)


def play_until(hand: Hand, who: Seat, card: str | None = None, trick: int = 0) -> None:
    """Play first legal cards (``who`` keeps ``card`` while it can) until ``who`` is to act
    in trick ``trick`` or later and may play ``card``."""

    def ready() -> bool:
        if hand.to_act != who or hand.trick_number < trick:
            return False
        return card is None or any(
            a.card is not None and a.card.text == card for a in hand.legal_actions()
        )

    while not ready():
        to_act = hand.to_act
        assert to_act is not None
        plays = [a for a in hand.legal_actions() if a.card is not None and not a.ekka]
        keep = [a for a in plays if to_act != who or a.card is None or a.card.text != card]
        hand.apply((keep or plays)[0])


def test_r11_3_baloot_word_only_on_second_of_king_queen() -> None:
    hand = hokum_hand(P10_HANDS, "Kh")
    with pytest.raises(IllegalActionError) as info:
        hand.apply("N play Kh baloot")
    assert "Baloot" in info.value.reason
    hand.apply("N play Kh")
    play_until(hand, Seat.N, "Qh", trick=1)
    hand.apply("N play Qh baloot")


def test_r10_5_declaration_only_in_first_trick() -> None:
    hand = hokum_hand(P10_HANDS, "Kh")
    play_until(hand, Seat.N, trick=1)
    with pytest.raises(IllegalActionError) as info:
        hand.apply("N declare sira")
    assert info.value.reason.startswith("N ") and "first trick" in info.value.reason


def test_r10_5_declaring_a_project_not_held_is_illegal() -> None:
    hand = hokum_hand(P10_HANDS, "Kh")
    with pytest.raises(IllegalActionError) as info:
        hand.apply("N declare fifty")
    assert info.value.reason.startswith("N ")


def test_r10_5_undeclared_projects_do_not_compare() -> None:
    # P6 deal: only N declares; W's four Kings never enter the comparison.
    hand = hokum_hand(P6_HANDS, "7c")
    play_out(hand, {"N": "hundred"})
    result = hand.result()
    assert shape(result.projects[NS]) == {(HUNDRED, mask("Qd Jd Td 9d 8d"))}
    assert result.projects[EW] == ()


def test_r10_6_higher_top_card_wins_and_lower_may_not_be_declared() -> None:
    hands = {
        "N": "9s 8s 7s Ah Kc Qd 7d 9h",
        "W": "Qs Js Ts Kh Qh Kd 7c Tc",
        "S": "9c 8c Jc Ks Th 7h Jd Ad",
        "E": "Td 9d 8d As Jh 8h Ac Qc",
    }
    hand = hokum_hand(hands, "Kc")
    hand.apply("N declare sira")
    hand.apply("N play Ah")
    hand.apply("W declare sira")  # Q-top beats N's 9-top
    play_until(hand, Seat.E)
    # E's 10-top Sira is lower than W's: E may not declare it (#19) …
    with pytest.raises(IllegalActionError):
        hand.apply("E declare sira")
    play_out(hand)
    result = hand.result()
    # … but W's team shows all projects of both its players, E's included.
    assert shape(result.projects[EW]) == {(SIRA, mask("Qs Js Ts")), (SIRA, mask("Td 9d 8d"))}
    assert result.projects[NS] == ()


def test_r10_6_four_of_a_kind_compared_by_rank() -> None:
    hands = {
        "N": "Ts Th Td Tc As 8h Kd 7c",
        "W": "Js Jh Jd Jc 9s Ah Qd 8c",
        "S": "Ks 8s Kh 9h Ad 8d Ac 9c",
        "E": "Qs 7s Qh 7h 9d 7d Kc Qc",
    }
    hand = hokum_hand(hands, "Th")
    assert all(hand.projects(s) == () for s in (Seat.S, Seat.E))
    play_out(hand, {"N": "hundred", "W": "hundred"})  # four Jacks beat four Tens
    result = hand.result()
    assert shape(result.projects[EW]) == {(HUNDRED, mask("Js Jh Jd Jc"))}
    assert result.projects[NS] == ()


def test_r10_4_equal_totals_stronger_best_project() -> None:
    # A♠–10♠ (sequence Hundred) or four Queens (Hundred): the same total; four of a kind is the
    # stronger Hundred by default, the sequence with hundred_sequence_beats_four_kind.
    hand = "As Ks Qs Js Ts Qh Qd Qc"
    assert shape(read(hand, sun=False)) == {(HUNDRED, mask("Qs Qh Qd Qc"))}
    assert shape(read(hand, sun=False, hundred_sequence_first=True)) == {
        (HUNDRED, mask("As Ks Qs Js Ts"))
    }
