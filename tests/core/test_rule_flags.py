"""R14: every variant flag, each set to a non-default value that changes a result the way
decisions.md says (and the default checked on the same case). Dealer E, P1 = N.
"""

from __future__ import annotations

import pytest
from helpers import (
    DC_DECK,
    KAWESH_FIVE,
    act,
    bid,
    contract_of,
    end_doubling,
    hokum_hand,
    legal_calls,
    legal_plays,
    mask,
    names,
    new_hand,
    phase_of,
    play_out,
    position,
    score,
    shape,
    turn,
)
from test_project_examples import P8_HANDS

from baloot import Hand, IllegalActionError, Phase, ProjectKind, Rules, RulesError, Seat, Suit, Team
from baloot.core.projects import reading
from baloot.core.rules import (
    AshkalMode,
    BalootOnLoss,
    DoubledExactTie,
    FirstLead,
    KabootProjects,
    ProjectMultiplier,
    SunDoubleRule,
    WinComparison,
)
from baloot.core.vocabulary import Level, Outcome

NS, EW = Team.NS, Team.EW
CLASSIC = Rules()


# --------------------------------------------------------------------------- play order


@pytest.mark.parametrize(
    ("flag", "leader"), [(FirstLead.DEALER_RIGHT, Seat.N), (FirstLead.DECLARER, Seat.S)]
)
def test_first_lead(flag: FirstLead, leader: Seat) -> None:
    hand = Hand.from_deck(DC_DECK, "E", Rules(first_lead=flag))
    bid(hand, "S")
    end_doubling(hand)
    assert turn(hand) == leader


def test_first_lead_declarer_in_ashkal_is_callers_partner() -> None:
    hand = Hand.from_deck(DC_DECK, "E", Rules(first_lead=FirstLead.DECLARER))
    act(hand, "N pass", "W pass", "S pass", "E ashkal", "N pass", "W pass", "S pass")
    assert contract_of(hand) == ("sun", None, Seat.W)
    assert phase_of(hand) is Phase.PLAYING
    assert turn(hand) == Seat.W


# --------------------------------------------------------------------------- bidding flags


def test_hokum_bidder_may_upgrade_to_sun_off_no_confirm() -> None:
    hand = new_hand(rules=Rules(hokum_bidder_may_upgrade_to_sun=False))
    act(hand, "N pass", "W pass", "S pass", "E hokum", "N pass", "W pass", "S pass")
    assert contract_of(hand) == ("hokum", Suit.SPADES, Seat.E)  # E was not asked "confirm or Sun"
    assert phase_of(hand) is Phase.DOUBLING


def test_hokum_bidder_may_upgrade_to_sun_off_bidder_skipped_in_window() -> None:
    hand = new_hand(rules=Rules(hokum_bidder_may_upgrade_to_sun=False))
    act(hand, "N hokum", "W pass", "S sun")
    assert turn(hand) == Seat.W  # N, the Hokum bidder, is skipped
    act(hand, "W pass")
    assert contract_of(hand) == ("sun", None, Seat.S)
    default = new_hand(rules=CLASSIC)
    act(default, "N hokum", "W pass", "S sun")
    assert turn(default) == Seat.N


def test_hokum_bidder_may_upgrade_to_sun_off_round2_naming_without_sun() -> None:
    hand = new_hand(rules=Rules(hokum_bidder_may_upgrade_to_sun=False))
    act(hand, "N pass", "W pass", "S pass", "E pass", "N hokum", "W pass", "S pass", "E pass")
    assert legal_calls(hand) == {"N trump h", "N trump d", "N trump c"}


def test_ashkal_mode_over_opponent_hokum() -> None:
    rules = Rules(ashkal_mode=AshkalMode.OVER_OPPONENT_HOKUM)
    after_passes = new_hand(rules=rules)
    act(after_passes, "N pass", "W pass")
    assert "S ashkal" not in legal_calls(after_passes)
    partner_hokum = new_hand(rules=rules)
    act(partner_hokum, "N hokum", "W pass")
    assert "S ashkal" not in legal_calls(partner_hokum)
    hand = new_hand(rules=rules)
    act(hand, "N pass", "W hokum")
    assert "S ashkal" in legal_calls(hand)
    act(hand, "S ashkal")
    # #6: the Hokum bidder W is asked in the take-over window like any earlier seat.
    assert turn(hand) == Seat.N
    act(hand, "N pass")
    assert turn(hand) == Seat.W
    act(hand, "W pass")
    assert contract_of(hand) == ("sun", None, Seat.N)


def test_ashkal_mode_both() -> None:
    rules = Rules(ashkal_mode=AshkalMode.BOTH)
    hand = new_hand(rules=rules)
    act(hand, "N pass", "W pass")
    assert "S ashkal" in legal_calls(hand)
    hand = new_hand(rules=rules)
    act(hand, "N pass", "W hokum")
    assert "S ashkal" in legal_calls(hand)
    hand = new_hand(rules=rules)
    act(hand, "N hokum", "W pass")
    assert "S ashkal" not in legal_calls(hand)


def test_ashkal_on_ace() -> None:
    hand = new_hand("As", Rules(ashkal_on_ace=True))
    act(hand, "N pass", "W pass")
    assert "S ashkal" in legal_calls(hand)
    act(hand, "S ashkal", "N pass", "W pass")
    assert contract_of(hand) == ("sun", None, Seat.N)
    default = new_hand("As", CLASSIC)
    act(default, "N pass", "W pass")
    assert "S ashkal" not in legal_calls(default)


def test_ashkal_round2() -> None:
    hand = new_hand(rules=Rules(ashkal_round2=True))
    act(hand, "N pass", "W pass", "S pass", "E pass", "N pass", "W pass")
    assert "S ashkal" in legal_calls(hand)
    act(hand, "S ashkal")
    # #7: like a round-2 Sun it ends the bidding at once; the caller's partner declares.
    assert contract_of(hand) == ("sun", None, Seat.N)
    assert phase_of(hand) is Phase.PLAYING


def test_ace_hokum_sun_only_p1() -> None:
    rules = Rules(ace_hokum_sun_only_p1=True)
    hand = new_hand("As", rules)
    act(hand, "N pass", "W hokum")
    assert legal_calls(hand) == {"S pass"}
    with pytest.raises(IllegalActionError):
        hand.apply("S sun")
    act(hand, "S pass", "E pass")
    assert turn(hand) == Seat.N  # only P1 is offered Sun
    assert legal_calls(hand) == {"N pass", "N sun"}
    act(hand, "N pass")
    assert contract_of(hand) == ("hokum", Suit.SPADES, Seat.W)  # W is not asked to confirm (W ≠ P1)
    default = new_hand("As", CLASSIC)
    act(default, "N pass", "W hokum")
    assert "S sun" in legal_calls(default)


def test_ace_hokum_sun_only_p1_bidder_p1_confirms_and_sun_before_hokum_free() -> None:
    rules = Rules(ace_hokum_sun_only_p1=True)
    hand = new_hand("As", rules)
    act(hand, "N hokum", "W pass", "S pass", "E pass")
    assert legal_calls(hand) == {"N pass", "N sun"}
    free = new_hand("As", rules)
    act(free, "N pass")
    assert "W sun" in legal_calls(free)


def test_ace_hokum_sun_only_p1_window_after_dealers_hokum() -> None:
    hand = new_hand("As", Rules(ace_hokum_sun_only_p1=True))
    act(hand, "N pass", "W pass", "S pass", "E hokum")
    assert turn(hand) == Seat.N
    act(hand, "N pass")  # W and S are not offered Sun, E is not asked to confirm
    assert contract_of(hand) == ("hokum", Suit.SPADES, Seat.E)
    default = new_hand("As")
    act(default, "N pass", "W pass", "S pass", "E hokum", "N pass")
    assert turn(default) == Seat.W


def test_third_round_on_ace() -> None:
    rules = Rules(third_round_on_ace=True)
    calls = ["N pass", "W pass", "S pass", "E pass"] * 2
    hand = new_hand("As", rules)
    act(hand, *calls)
    assert phase_of(hand) is Phase.BIDDING_ROUND_3
    assert turn(hand) == Seat.N
    assert legal_calls(hand) == {"N pass", "N sun"}
    act(hand, "N sun")
    assert contract_of(hand) == ("sun", None, Seat.N)
    annulled = new_hand("As", rules)
    act(annulled, *calls, "N pass")
    assert annulled.result().outcome is Outcome.ANNULLED
    no_ace = new_hand("Ks", rules)
    act(no_ace, *calls)
    assert no_ace.result().outcome is Outcome.ANNULLED
    default = new_hand("As", CLASSIC)
    act(default, *calls)
    assert default.result().outcome is Outcome.ANNULLED


def test_kawesh_enabled_off() -> None:
    hand = new_hand("8h", Rules(kawesh_enabled=False), W=KAWESH_FIVE)
    act(hand, "N pass")
    assert "W kawesh" not in legal_calls(hand)
    with pytest.raises(IllegalActionError):
        hand.apply("W kawesh")


def test_kawesh_same_dealer() -> None:
    rules = Rules(kawesh_same_dealer=True)
    hand = new_hand("8h", rules, W=KAWESH_FIVE)
    act(hand, "N pass", "W kawesh")
    assert hand.next_dealer == Seat.E
    # #9: every other annulment still passes the deal.
    passed_out = new_hand("8h", rules)
    act(passed_out, *["N pass", "W pass", "S pass", "E pass"] * 2)
    assert passed_out.next_dealer == Seat.N


# --------------------------------------------------------------------------- doubling flags


def test_lock_persists_through_escalation() -> None:
    hand = new_hand(rules=Rules(lock_persists_through_escalation=True))
    bid(hand, "N")
    act(hand, "W double locked", "N triple")
    c = hand.contract
    assert c is not None and c.level == 3 and c.locked
    act(hand, "W four open")  # Four still chooses anew
    c = hand.contract
    assert c is not None and not c.locked
    default = new_hand(rules=CLASSIC)
    bid(default, "N")
    act(default, "W double locked", "N triple")
    c = default.contract
    assert c is not None and not c.locked


def test_lock_persists_through_gahwa() -> None:
    hand = new_hand(rules=Rules(lock_persists_through_escalation=True))
    bid(hand, "N")
    act(hand, "W double open", "N triple", "W four locked", "N gahwa")
    c = hand.contract
    assert c is not None and c.level is Level.GAHWA and c.locked


@pytest.mark.parametrize(
    ("flag", "totals", "allowed"),
    [
        (SunDoubleRule.EITHER_SIDE_GT_LT, (80, 120), True),
        (SunDoubleRule.DECLARER_GT100_DOUBLER_LT100, (80, 120), False),
        (SunDoubleRule.DECLARER_GT100_DOUBLER_LT100, (120, 80), True),
        (SunDoubleRule.DECLARER_GT100_DOUBLER_LT100, (120, 100), False),
        (SunDoubleRule.EITHER_SIDE_GT_LT, (120, 100), False),
        (SunDoubleRule.DECLARER_GT100_DOUBLER_LE100, (120, 100), True),
        (SunDoubleRule.DECLARER_GT100_DOUBLER_LE100, (100, 50), False),
    ],
)
def test_sun_double_rule(flag: SunDoubleRule, totals: tuple[int, int], allowed: bool) -> None:
    hand = new_hand(rules=Rules(sun_double_rule=flag), score_before=totals)
    act(hand, "N sun")  # declarers NS
    assert (phase_of(hand) is Phase.DOUBLING) is allowed


# --------------------------------------------------------------------------- play flags


def test_must_undertrump() -> None:
    now = {"N": "Kc 9s 7d", "W": "9h Ks 9d", "S": "8h 7h As", "E": "Ac 8s Td"}
    earlier = [
        "N: Th Jh Kh Qh",
        "W: Qs Js Ts 7s",
        "E: 8c Qc Tc Ah",
        "S: 8d Kd Qd Jd",
        "E: 7c Jc 9c Ad",
    ]
    default = position(now, earlier)
    act(default, "N play Kc", "W play 9h")
    assert legal_plays(default) == names("8h 7h As")
    hand = position(now, earlier, rules=Rules(must_undertrump=True))
    act(hand, "N play Kc", "W play 9h")
    assert legal_plays(hand) == names("8h 7h")
    with pytest.raises(IllegalActionError) as info:
        hand.apply("S play As")
    assert info.value.reason.startswith("S ")


def test_partner_led_must_trump_off() -> None:
    now = {"N": "Qd 9s 8c", "W": "7d As Kc", "S": "7h Ks 8s", "E": "Jd 8d 9c"}
    earlier = [
        "N: Jc 7c Ac Qc",
        "S: Jh Kd 8h Kh",
        "S: 9h Td Qh Ah",
        "S: Th Ad 9d Tc",
        "S: 7s Qs Ts Js",
    ]
    default = position(now, earlier)
    act(default, "N play Qd", "W play 7d")
    assert legal_plays(default) == names("7h")
    hand = position(now, earlier, rules=Rules(partner_led_must_trump=False))
    act(hand, "N play Qd", "W play 7d")
    assert legal_plays(hand) == names("7h Ks 8s")


# --------------------------------------------------------------------------- project flags


# N four Queens, E the sequence Hundred J♦–7♦; trump ♥.
QUEENS_VS_RUN = {
    "N": "Qs Qh Qd Qc Ah 9s 8c 7h",
    "W": "As Js Ts Kh Jh 9h Kc Jc",
    "S": "8s Th 8h Ad Kd Tc 9c 7c",
    "E": "Jd Td 9d 8d 7d Ks 7s Ac",
}


def test_hundred_sequence_beats_four_kind() -> None:
    default = hokum_hand(QUEENS_VS_RUN, "Qh", CLASSIC)
    default.apply("N declare hundred")
    default.apply("N play 9s")
    default.apply("W play Js")
    default.apply("S play 8s")
    with pytest.raises(IllegalActionError):
        default.apply("E declare hundred")  # lower than four Queens by default
    play_out(default)
    assert shape(default.result().projects[NS]) == {(ProjectKind.HUNDRED, mask("Qs Qh Qd Qc"))}
    hand = hokum_hand(QUEENS_VS_RUN, "Qh", Rules(hundred_sequence_beats_four_kind=True))
    hand.apply("N declare hundred")
    hand.apply("N play 9s")
    hand.apply("W play Js")
    hand.apply("S play 8s")
    hand.apply("E declare hundred")
    play_out(hand)
    result = hand.result()
    assert shape(result.projects[EW]) == {(ProjectKind.HUNDRED, mask("Jd Td 9d 8d 7d"))}
    assert result.projects[NS] == ()


# P8's deal with trump ♦: E's Sira 10♦ 9♦ 8♦ is in trumps, N's 10♠ 9♠ 8♠ is not.


@pytest.mark.parametrize(("priority", "team"), [(False, NS), (True, EW)])
def test_trump_sequence_priority(priority: bool, team: Team) -> None:
    hand = hokum_hand(P8_HANDS, "Qd", Rules(trump_sequence_priority=priority))
    c = hand.contract
    assert c is not None and c.trump is not None and c.trump.letter == "d"
    play_out(hand, {"N": "sira", "E": "sira"})
    result = hand.result()
    assert result.projects[team.other] == ()
    expected = (
        {(ProjectKind.SIRA, mask("Td 9d 8d"))}
        if team == EW
        else {(ProjectKind.SIRA, mask("Ts 9s 8s")), (ProjectKind.SIRA, mask("9c 8c 7c"))}
    )
    assert shape(result.projects[team]) == expected


def test_long_sequence_split() -> None:
    eight = mask("Ah Kh Qh Jh Th 9h 8h 7h")
    assert shape(reading(eight, False)) == {(ProjectKind.HUNDRED, eight)}
    assert shape(reading(eight, False, split=True)) == {
        (ProjectKind.HUNDRED, mask("Ah Kh Qh Jh Th")),
        (ProjectKind.SIRA, mask("9h 8h 7h")),
    }
    hands = {
        "N": "Ah Kh Qh Jh Th 9h 8h 7h",
        "W": "As Ks Qs Js Ad Kd Qd Jd",
        "S": "Ts 9s 8s 7s Td 9d 8d 7d",
        "E": "Ac Kc Qc Jc Tc 9c 8c 7c",
    }
    hand = hokum_hand(hands, "Ah", Rules(long_sequence_split=True))
    assert shape(hand.projects(Seat.N)) == {
        (ProjectKind.HUNDRED, mask("Ah Kh Qh Jh Th")),
        (ProjectKind.SIRA, mask("9h 8h 7h")),
    }


def test_baloot_blocked_by_partial_overlap_changes_nothing_under_r10_4() -> None:
    # decisions #23: a shown project holding exactly one of K/Q of trumps is four Kings or four
    # Queens, which block anyway; a Sira with both does not block.
    four_kings = {
        "N": "Kh Ks Kd Kc Qh 9s 7d 8c",
        "W": "Ah Jh 8h As Qs Ad Qd Tc",
        "S": "Th 9h 7h Js Ts Jd Td Ac",
        "E": "8s 7s 9d 8d Qc Jc 9c 7c",
    }
    sira = {
        "N": "Kh Qh Jh As 9d 7d Tc 8c",
        "W": "Ah 9h Ks Js Ad Qd 9c 7c",
        "S": "Th 8h Qs Ts 8s Kc 8d Jc",
        "E": "9s 7s 7h Kd Jd Td Ac Qc",
    }
    for flag in (False, True):
        rules = Rules(baloot_blocked_by_partial_overlap=flag)
        hand = hokum_hand(four_kings, "Kh", rules)
        play_out(hand, {"N": "hundred"})
        assert hand.result().baloot == (0, 0)
        hand = hokum_hand(sira, "Kh", rules)
        play_out(hand, {"N": "sira"})
        assert hand.result().baloot == (2, 0)


# --------------------------------------------------------------------------- scoring flags


@pytest.mark.parametrize(
    ("flag", "expected"),
    [(BalootOnLoss.TRANSFER, (18, 0)), (BalootOnLoss.KEEP, (16, 2)), (BalootOnLoss.VOID, (16, 0))],
)
def test_baloot_on_loss_undoubled(flag: BalootOnLoss, expected: tuple[int, int]) -> None:
    # EW declare and fail (NS count 100 → 10 > 6 + 2); EW hold Baloot.
    s = score(Rules(baloot_on_loss=flag), cards=(100, 62), baloot=(0, 2))
    assert s.made is False
    assert s.score == expected


@pytest.mark.parametrize(
    ("flag", "expected"),
    [(BalootOnLoss.TRANSFER, (0, 25)), (BalootOnLoss.KEEP, (2, 25)), (BalootOnLoss.VOID, (0, 25))],
)
def test_baloot_on_loss_in_kaboot(flag: BalootOnLoss, expected: tuple[int, int]) -> None:
    s = score(Rules(baloot_on_loss=flag), cards=(0, 162), tricks=(0, 8), baloot=(2, 0))
    assert s.score == expected


def test_baloot_on_loss_doubled_winner_keeps_own_with_keep() -> None:
    # Doubled, EW declare and win; NS hold Baloot: transfer → EW 32 + 2; keep → NS keep 2.
    transfer = score(CLASSIC, level=2, cards=(60, 102), baloot=(2, 0))
    keep = score(Rules(baloot_on_loss=BalootOnLoss.KEEP), level=2, cards=(60, 102), baloot=(2, 0))
    assert transfer.score == (0, 34)
    assert keep.score == (2, 32)


@pytest.mark.parametrize(
    ("flag", ProjectMultiplier.LEVEL, "expected"),
    [
        (ProjectMultiplier.X2, 2, (0, 42)),
        (ProjectMultiplier.X2, 3, (0, 58)),
        (ProjectMultiplier.LEVEL, 3, (0, 63)),
        (ProjectMultiplier.LEVEL, 4, (0, 84)),
        (ProjectMultiplier.X2_AT_DOUBLE_X1_ABOVE, 2, (0, 42)),
        (ProjectMultiplier.X2_AT_DOUBLE_X1_ABOVE, 3, (0, 53)),
        (ProjectMultiplier.X2_AT_DOUBLE_X1_ABOVE, 4, (0, 69)),
    ],
)
def test_project_multiplier(flag: ProjectMultiplier, level: int, expected: tuple[int, int]) -> None:
    # EW win with a Fifty (5): 16×L + multiplier × 5.
    s = score(
        Rules(project_multiplier=flag),
        level=level,
        cards=(70, 92),
        project_team=EW,
        project_points=5,
        project_raw=50,
    )
    assert s.winner == EW
    assert s.score == expected


def test_doubled_exact_tie() -> None:
    # Doubled Hokum, declarers EW count 78 → 8, NS 8: tie. Digit 8 → the counting team (EW)
    # loses; with last_caller_loses the doubler's team (NS) loses.
    digit = score(CLASSIC, level=2, cards=(84, 78))
    assert digit.game_points == (8, 8)
    assert digit.score == (32, 0)
    last = score(
        Rules(doubled_exact_tie=DoubledExactTie.LAST_CALLER_LOSES), level=2, cards=(84, 78)
    )
    assert last.score == (0, 32)
    # Triple: NS count; NS 84 → 8, tie, digit 4 → NS (counting) win; last caller is EW → same.
    assert score(
        Rules(doubled_exact_tie=DoubledExactTie.LAST_CALLER_LOSES), level=3, cards=(84, 78)
    ).score == (
        48,
        0,
    )


def test_doubled_exact_tie_not_for_undoubled() -> None:
    s = score(Rules(doubled_exact_tie=DoubledExactTie.LAST_CALLER_LOSES), cards=(77, 85))
    assert s.score == (8, 8)


def test_kaboot_multiplied_off() -> None:
    base = dict(cards=(0, 162), tricks=(0, 8), project_team=EW, project_points=2, project_raw=20)
    assert score(CLASSIC, level=2, **base).score == (0, 54)  # type: ignore[arg-type]
    s = score(Rules(kaboot_multiplied=False), level=2, **base)  # type: ignore[arg-type]
    assert s.score == (0, 29)  # 25 + 2 × 2
    sun = score(Rules(kaboot_multiplied=False), sun=True, level=2, cards=(0, 130), tricks=(0, 8))
    assert sun.score == (0, 44)


@pytest.mark.parametrize(
    ("flag", "expected"),
    [
        (KabootProjects.OWN_SCORED, (0, 25)),
        (KabootProjects.ALL, (0, 30)),
        (KabootProjects.NONE, (0, 25)),
    ],
)
def test_kaboot_projects_other_teams_projects(
    flag: KabootProjects, expected: tuple[int, int]
) -> None:
    # EW kaboot; NS won the project comparison with a Fifty.
    s = score(
        Rules(kaboot_projects=flag),
        cards=(0, 162),
        tricks=(0, 8),
        project_team=NS,
        project_points=5,
        project_raw=50,
    )
    assert s.score == expected


@pytest.mark.parametrize(
    ("flag", "expected"),
    [
        (KabootProjects.OWN_SCORED, (0, 29)),
        (KabootProjects.ALL, (0, 29)),
        (KabootProjects.NONE, (0, 27)),
    ],
)
def test_kaboot_projects_own_projects(flag: KabootProjects, expected: tuple[int, int]) -> None:
    # S23: EW kaboot with their Sira and Baloot.
    s = score(
        Rules(kaboot_projects=flag),
        cards=(0, 162),
        tricks=(0, 8),
        project_team=EW,
        project_points=2,
        project_raw=20,
        baloot=(0, 2),
    )
    assert s.score == expected


def test_win_comparison_raw_points() -> None:
    # S13: 56 + Fifty (50) = 106 = 106 raw → D (EW) safe; GP comparison says D failed.
    args = dict(cards=(56, 106), project_team=NS, project_points=5, project_raw=50)
    assert score(CLASSIC, **args).score == (21, 0)  # type: ignore[arg-type]
    s = score(Rules(win_comparison=WinComparison.RAW_POINTS), **args)  # type: ignore[arg-type]
    assert s.made is True
    assert s.score == (11, 10)


def test_hokum_pair_rounding() -> None:
    # Declarers NS with a Fifty; 66 / 96. Default: EW count 96 → 10, NS 6 (+5 = 11).
    # Pair rounding: 66 → 7, 96 → 10; sum 17, equal remainders → larger raw (EW) loses 1.
    args = dict(declarers=NS, cards=(66, 96), project_team=NS, project_points=5, project_raw=50)
    default = score(CLASSIC, **args)  # type: ignore[arg-type]
    assert default.card_game_points == (6, 10)
    assert default.score == (11, 10)
    pair = score(Rules(hokum_pair_rounding=True), **args)  # type: ignore[arg-type]
    assert pair.card_game_points == (7, 9)
    assert pair.score == (12, 9)


# --------------------------------------------------------------------------- presets


def test_federation_preset_sets_the_six_flags() -> None:
    fed = Rules.federation()
    assert fed.changes() == {
        "hundred_sequence_beats_four_kind": True,
        "baloot_on_loss": "keep",
        "doubled_exact_tie": "last_caller_loses",
        "sun_double_rule": "declarer_gt100_doubler_le100",
        "ace_hokum_sun_only_p1": True,
        "ashkal_mode": "over_opponent_hokum",
    }
    assert Rules.classic() == Rules()


def test_unknown_flag_or_value_is_an_error() -> None:
    with pytest.raises(RulesError):
        Rules.classic().replace(no_such_flag=True)
    with pytest.raises(RulesError):
        Rules(baloot_on_loss="sometimes")  # type: ignore[arg-type]
    with pytest.raises(RulesError):
        Rules(must_undertrump="yes")  # type: ignore[arg-type]


def test_gahwa_level_constant_is_not_a_multiplier_level() -> None:
    # Gahwa scores nothing on the sheet whatever project_multiplier says (#27).
    s = score(
        Rules(project_multiplier=ProjectMultiplier.LEVEL),
        level=Level.GAHWA,
        cards=(60, 102),
        project_team=EW,
        project_points=5,
        project_raw=50,
    )
    assert s.score == (0, 0) and s.winner == EW
