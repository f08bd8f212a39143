"""rules.md §3.1: the S-examples through ``baloot.core.scoring.score_hand``, a few of them end
to end through a real hand, and unit tests of R12.

Expected figures are the ones printed in the spec; nothing is recomputed with the engine.
End-to-end hands are fixed decks and action lists; their card points are recounted
independently from the played cards (``helpers.count_tricks``) before the score is checked.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from helpers import build_deck, count_tricks, end_doubling, play_tricks, score, turn
from spec_example import ACTIONS, DECK, HAND_JSON

from baloot import Hand, ProjectKind, Rules, Seat, Team
from baloot.core.rules import ProjectMultiplier
from baloot.core.scoring import doubling_factor
from baloot.core.vocabulary import ContractKind, Level
from baloot.records.summary import hand_json

NS, EW = Team.NS, Team.EW


# --------------------------------------------------------------------------- §3.1 via score_hand


def test_S1_hokum_tie_digit_7_counting_team_loses_declarers_made() -> None:
    s = score(cards=(77, 85))
    assert s.counting_team == NS
    assert s.game_points == (8, 8)
    assert s.score == (8, 8)
    assert s.made is True


def test_S2_hokum_defenders_fifty_declarers_fail() -> None:
    s = score(cards=(77, 85), project_team=NS, project_points=5, project_raw=50)
    assert s.game_points == (13, 8)
    assert s.score == (21, 0)
    assert s.made is False


def test_S3_hokum_tie_digit_8_counting_team_loses() -> None:
    s = score(cards=(78, 84))
    assert s.score == (8, 8)
    assert s.made is True


def test_S4_hokum_rounding_five_rounds_down() -> None:
    s = score(cards=(65, 97))
    assert s.card_game_points == (6, 10)
    assert s.score == (6, 10)


def test_S5_hokum_rounding_six_rounds_up() -> None:
    s = score(cards=(66, 96))
    assert s.card_game_points == (7, 9)
    assert s.score == (7, 9)


def test_S6_hokum_tie_digit_2_counting_team_wins_declarers_fail() -> None:
    s = score(cards=(82, 80))
    assert s.game_points == (8, 8)
    assert s.score == (16, 0)
    assert s.made is False


def test_S8_sun_65_keeps_5_tie_goes_to_declarers() -> None:
    s = score(sun=True, cards=(65, 65))
    assert s.card_game_points == (13, 13)
    assert s.score == (13, 13)
    assert s.made is True


def test_S9_sun_66_rounds_to_70() -> None:
    s = score(sun=True, cards=(66, 64))
    assert s.card_game_points == (14, 12)
    assert s.score == (26, 0)
    assert s.made is False


def test_S11_sun_tie_digit_1_counting_team_wins() -> None:
    s = score(sun=True, cards=(41, 89), project_team=NS, project_points=10, project_raw=50)
    assert s.card_game_points == (8, 18)
    assert s.game_points == (18, 18)
    assert s.score == (36, 0)
    assert s.made is False


def test_S13_hokum_game_points_decide_not_raw_points() -> None:
    s = score(cards=(56, 106), project_team=NS, project_points=5, project_raw=50)
    assert s.game_points == (11, 10)
    assert s.score == (21, 0)
    assert s.made is False


def test_S17_doubled_hokum_counting_team_is_declarers() -> None:
    s = score(level=2, cards=(77, 85))
    assert s.counting_team == EW
    assert s.card_game_points == (8, 8)
    assert s.score == (0, 32)
    assert s.made is True


def test_S19_tripled_hokum_projects_doubled_only() -> None:
    s = score(level=3, cards=(70, 92), project_team=EW, project_points=5, project_raw=50)
    assert s.counting_team == NS
    assert s.game_points == (7, 14)
    assert s.score == (0, 58)


def test_S19_project_multiplier_level_variant() -> None:
    rules = Rules(project_multiplier=ProjectMultiplier.LEVEL)
    s = score(rules, level=3, cards=(70, 92), project_team=EW, project_points=5, project_raw=50)
    assert s.score == (0, 63)


def test_S23_hokum_kaboot_own_sira_and_baloot() -> None:
    s = score(
        cards=(0, 162),
        tricks=(0, 8),
        project_team=EW,
        project_points=2,
        project_raw=20,
        baloot=(0, 2),
    )
    assert s.kaboot == EW
    assert s.score == (0, 29)


def test_S25_sun_kaboot_with_hundred() -> None:
    s = score(
        sun=True,
        cards=(0, 130),
        tricks=(0, 8),
        project_team=EW,
        project_points=20,
        project_raw=100,
    )
    assert s.kaboot == EW
    assert s.score == (0, 64)


def test_S28_gahwa_hand_winner_wins_match() -> None:
    s = score(level=Level.GAHWA, cards=(75, 87))
    assert s.counting_team == NS
    assert s.winner == EW
    assert s.made is True
    assert s.score == (0, 0)  # decisions #27: the match is decided, nothing is written


# --------------------------------------------------------------------------- end to end

# Dealer E, E bids Hokum on the exposed card, nobody declares, nobody holds Baloot.
S1_DECK = (
    "9h Qh Jc 9c 9s 7c 8h Qs Ks 8d Kh Ts Tc 7s 8c As Js Ad Kd Th "
    "Jd Jh 7d Qc Qd 7h 9d Td 8s Ah Ac Kc"
)
E_HOKUM = ["N pass", "W pass", "S pass", "E hokum", "N pass", "W pass", "S pass", "E pass"]
S1_PLAY = [
    "N: 7d 9d Td 8d",
    "W: 9s Js Ts 7s",
    "E: Ac Tc 9c Ad",
    "S: Qs Kd Jh As",
    "E: Kh 9h 7h 8h",
    "E: Jd Jc Qd 8s",
    "E: Th Qh 7c Ah",
    "S: Ks Kc Qc 8c",
]


def replay(deck: str, calls: Sequence[str], tricks: Sequence[str]) -> Hand:
    hand = Hand.from_deck(deck, "E")
    for call in calls:
        hand.apply(call)
    end_doubling(hand)
    play_tricks(hand, tricks)
    assert hand.is_over
    return hand


def test_S1_end_to_end() -> None:
    hand = replay(S1_DECK, [*E_HOKUM, "N pass", "S pass"], S1_PLAY)
    assert count_tricks(hand)[1] == (77, 85)
    result = hand.result()
    assert result.card_points == (77, 85)
    assert result.score == (8, 8)
    assert result.made is True
    assert result.kaboot is None


def test_S17_end_to_end_double_makes_declarers_count() -> None:
    hand = replay(S1_DECK, [*E_HOKUM, "N double open", "E pass"], S1_PLAY)
    contract = hand.contract
    assert contract is not None and contract.level == 2 and contract.declarer == Seat.E
    result = hand.result()
    assert result.card_points == (77, 85)
    assert result.scoring is not None and result.scoring.counting_team == EW
    assert result.score == (0, 32)


def test_S2_end_to_end_declared_fifty_of_defenders() -> None:
    deck = (
        "9s Ts Qs 8h 8d Jc 9d Kd Kc 7s Ad Ks Kh Qd As 7h Jd 9h 7d Td "
        "Ac Jh Ah Qh 8c 9c Qc Th 7c Tc 8s Js"
    )
    hand = Hand.from_deck(deck, "E")
    for call in [*E_HOKUM, "N pass", "S pass"]:
        hand.apply(call)
    play_tricks(
        hand,
        [
            "N: 9s As Tc 8s",
            "S: 7c Ac Qd Qc",
            "E: 7d Kh 8d Kd",
            "S: Kc 7s Qh Jc",
            "W: 9c 9d Ks Ah",
            "W: 8c 9h Td Jh",
            "W: 7h Th Ad Ts",
            "S: Jd Js Qs 8h",
        ],
        declare={"N": "fifty"},
    )
    assert count_tricks(hand)[1] == (77, 85)
    result = hand.result()
    assert [p.kind for p in result.projects[NS]] == [ProjectKind.FIFTY]
    assert result.projects[EW] == ()
    assert result.score == (21, 0)
    assert result.made is False


def test_S28_end_to_end_gahwa() -> None:
    deck = (
        "8c As Ts Qd Qh Ks Ad Ac 9h Ah Qc 7d Kh 7s Jd 7c Kd Qs 9c Jc "
        "Tc Td 8s 8h 8d Js 9s 7h 9d Kc Th Jh"
    )
    ladder = ["N double open", "E triple", "N four open", "E gahwa"]
    hand = replay(
        deck,
        [*E_HOKUM, *ladder],
        [
            "N: 8h Qh 9h Jh",
            "W: Qd Ad 7d Td",
            "S: Kd Jc 8s Jd",
            "E: Ah Kh 7c 7h",
            "W: 9s Qs Tc Ts",
            "E: Qc 8c 8d Kc",
            "S: 9d 9c 7s Ks",
            "E: Th As Js Ac",
        ],
    )
    contract = hand.contract
    assert contract is not None and contract.level is Level.GAHWA
    assert count_tricks(hand)[1] == (75, 87)
    result = hand.result()
    assert result.gahwa_winner == EW
    assert result.made is True
    assert result.score == (0, 0)


# S23 by hand: EW hold every trump (♠) and the best hearts; W has the Sira A♥ K♥ Q♥, E the
# Baloot K♠ Q♠. N leads, W wins with A♥ and EW take every trick.
S23_HANDS = {
    "N": "Jh Th 8h 7h Kd 9d Kc 9c",
    "W": "As Js 9s 7s Ah Kh Qh Ad",
    "S": "Qd Jd 8d 7d Qc Jc 8c 7c",
    "E": "Ks Qs Ts 8s Ac Tc Td 9h",
}
S23_PLAY = [
    "N: 7h Ah 7c 9h",
    "W: Js 8c 8s 9c",
    "W: 9s 8d Ts 9d",
    "W: As 7d Qs Kd",
    "W: 7s Qc Ks 8h",
    "E: Ac Kc Kh Jc",
    "E: Tc Jh Qh Jd",
    "E: Td Th Ad Qd",
]


def test_S23_end_to_end_hokum_kaboot() -> None:
    hand = Hand.from_deck(build_deck(S23_HANDS, taker="E", exposed="Ks"), "E")
    for call in [*E_HOKUM, "N pass", "S pass"]:
        hand.apply(call)
    play_tricks(hand, S23_PLAY, declare={"W": "sira"})
    assert count_tricks(hand) == ((0, 8), (0, 162))
    result = hand.result()
    assert result.kaboot == EW
    assert [p.kind for p in result.projects[EW]] == [ProjectKind.SIRA]
    assert result.baloot == (0, 2)
    assert result.score == (0, 29)


def test_S25_end_to_end_sun_kaboot() -> None:
    hands = {
        "N": "Qs Js 9s 8s Qd Jd 9d 8d",
        "W": "Ah Kh Qh Jh Th As Ks Ts",
        "S": "7h 7s 7d Qc Jc 9c 8c 7c",
        "E": "Ad Kd Td Ac Kc Tc 9h 8h",
    }
    hand = Hand.from_deck(build_deck(hands, taker="E", exposed="Ad"), "E")
    for call in ["N pass", "W pass", "S pass", "E sun", "N pass", "W pass", "S pass"]:
        hand.apply(call)
    contract = hand.contract
    assert contract is not None and contract.kind is ContractKind.SUN
    assert contract.declarer == Seat.E
    play_tricks(
        hand,
        [
            "N: 8s As 7s Tc",
            "W: Ts 7c Kc 9s",
            "W: Ks 8c Ac Js",
            "W: Ah 7h 9h 8d",
            "W: Th 9c 8h 9d",
            "W: Kh Jc Td Jd",
            "W: Qh Qc Kd Qd",
            "W: Jh 7d Ad Qs",
        ],
        declare={"W": "hundred"},
    )
    assert count_tricks(hand) == ((0, 8), (0, 130))
    result = hand.result()
    assert result.kaboot == EW
    assert [p.kind for p in result.projects[EW]] == [ProjectKind.HUNDRED]
    assert result.score == (0, 64)


# --------------------------------------------------------------------------- R12 unit tests


def test_r12_1_card_points_total_162_hokum() -> None:
    hand = replay(S1_DECK, [*E_HOKUM, "N pass", "S pass"], S1_PLAY)
    assert sum(hand.result().card_points) == 162


def test_r12_3_counting_team_by_last_call() -> None:
    cards = (80, 82)
    assert score(level=1, cards=cards).counting_team == NS  # bid: opponents of D
    assert score(level=2, cards=cards).counting_team == EW  # Double: D
    assert score(level=3, cards=cards).counting_team == NS  # Triple: O
    assert score(level=4, cards=cards).counting_team == EW  # Four: D
    assert score(level=Level.GAHWA, cards=cards).counting_team == NS  # Gahwa: O


def test_r12_4_only_counting_team_is_rounded_hokum() -> None:
    # NS count 75 → 7 (a 5 rounds down); EW get 16 − 7 = 9, not round(87) = 9 … and 56 → 6.
    assert score(cards=(75, 87)).card_game_points == (7, 9)
    assert score(cards=(56, 106)).card_game_points == (6, 10)
    # Doubled: EW count 106 → 11 (remainder 6 rounds up), NS get 5.
    assert score(level=2, cards=(56, 106)).card_game_points == (5, 11)


def test_r12_4_sun_rounding() -> None:
    assert score(sun=True, cards=(64, 66)).card_game_points == (12, 14)
    assert score(sun=True, cards=(74, 56)).card_game_points == (14, 12)
    assert score(sun=True, cards=(55, 75)).card_game_points == (11, 15)
    assert score(sun=True, cards=(71, 59)).card_game_points == (14, 12)


def test_r12_6_hokum_tie_digit_1_goes_to_declarers() -> None:
    # Declarers NS; EW count 91 → 9, NS 7 + Sira 2 = 9: tie, digit 1 → D (NS) wins.
    s = score(declarers=NS, cards=(71, 91), project_team=NS, project_points=2, project_raw=20)
    assert s.game_points == (9, 9)
    assert s.made is True
    assert s.score == (9, 9)


def test_r12_6_sun_tie_digit_0_goes_to_declarers() -> None:
    # Declarers NS; EW count 90 → 18, NS 8 + Fifty 10 = 18: tie, digit 0 → D (NS) wins.
    s = score(
        sun=True, declarers=NS, cards=(40, 90), project_team=NS, project_points=10, project_raw=50
    )
    assert s.game_points == (18, 18)
    assert s.made is True
    assert s.score == (18, 18)


def test_r12_7_b_failed_declarers_lose_their_baloot_to_opponents() -> None:
    # EW declare and fail; EW hold Baloot: NS write 16 + both teams' Baloot.
    s = score(cards=(100, 62), baloot=(0, 2))
    # NS count 100 → 10; EW 6 + Baloot 2 = 8 < 10.
    assert s.made is False
    assert s.score == (18, 0)


def test_r12_7_a_made_hand_each_team_writes_own_points() -> None:
    s = score(cards=(62, 100), baloot=(2, 0))
    # NS count 62 → 6 + Baloot 2 = 8, EW 10: D made; each writes its own P.
    assert s.score == (8, 10)


def test_r12_7_c_doubled_winner_takes_all_baloot_never_multiplied() -> None:
    s = score(
        level=2, cards=(60, 102), project_team=EW, project_points=2, project_raw=20, baloot=(2, 0)
    )
    # Counting EW 102 → 10 + 2 = 12 vs NS 6 + 2 = 8: EW win: 32 + 2×2 + 2 + 0.
    assert s.score == (0, 38)


def test_r12_7_c_doubled_sun_writes_52() -> None:
    s = score(sun=True, level=2, cards=(40, 90))
    assert s.score == (0, 52)


def test_r12_8_kaboot_by_defenders_and_doubled_kaboot() -> None:
    s = score(cards=(162, 0), tricks=(8, 0))
    assert s.kaboot == NS and s.made is False and s.score == (25, 0)
    assert score(level=2, cards=(0, 162), tricks=(0, 8)).score == (0, 50)
    assert score(level=4, cards=(0, 162), tricks=(0, 8)).score == (0, 100)
    assert score(sun=True, level=2, cards=(0, 130), tricks=(0, 8)).score == (0, 88)


@pytest.mark.parametrize(
    ("sun", "level", "factor"),
    [(False, 1, 1), (False, 2, 2), (False, 3, 3), (False, 4, 4), (True, 1, 1), (True, 2, 2)],
)
def test_r12_7_and_r12_8_a_lost_hand_and_a_kaboot_double_alike(
    sun: bool, level: int, factor: int
) -> None:
    whole, kaboot, cards = (26, 44, 130) if sun else (16, 25, 162)
    assert doubling_factor(sun, level) == factor
    kabooted = score(sun=sun, level=level, cards=(0, cards), tricks=(0, 8))
    assert kabooted.score == (0, kaboot * factor)
    if level > 1:  # EW's contract; NS take every card point, though not every trick
        lost = score(sun=sun, level=level, cards=(cards, 0), tricks=(7, 1))
        assert lost.score == (whole * factor, 0)


def test_r12_8_kaboot_other_team_projects_and_baloot_lost() -> None:
    s = score(
        cards=(0, 162),
        tricks=(0, 8),
        project_team=NS,
        project_points=5,
        project_raw=50,
        baloot=(2, 0),
    )
    assert s.score == (0, 25)


def test_record_format_example_hand_scores_15_3() -> None:
    # docs/records.md: the example record, the position after 12 actions, and its JSON.
    deck, actions = DECK, ACTIONS
    hand = Hand.from_deck(deck, "E")
    for action in actions[:12]:
        hand.apply(action)
    assert turn(hand) == Seat.S
    assert sorted(str(a) for a in hand.legal_actions()) == ["S play Jd"]
    for action in actions[12:]:
        hand.apply(action)
    assert count_tricks(hand) == ((6, 2), (136, 26))
    assert hand_json(hand.result()) == HAND_JSON
