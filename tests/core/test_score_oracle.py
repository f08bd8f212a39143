"""R10–R12 (project comparison, Baloot, counting, rounding, who won, what is written, Al-kaboot)
read again from the text and decisions #19–#34, and compared with the engine's result for
thousands of random played hands under random flags."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from baloot import Action, Card, Hand, Rules, Seat, Team, Verb
from baloot.core.cards import CARDS
from baloot.core.projects import Project, ProjectKind
from baloot.core.vocabulary import ContractKind, Outcome

RAW = {ProjectKind.SIRA: 20, ProjectKind.FIFTY: 50, ProjectKind.HUNDRED: 100}
RAW[ProjectKind.FOUR_HUNDRED] = 200
PLAIN = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
TRUMP = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
ORDER_TRUMP = "J9ATKQ87"
ORDER_PLAIN = "ATKQJ987"


def card_points(hand: Hand) -> tuple[list[int], list[int]]:
    """Card points and tricks per team, from the plays (R2.2, R2.3, R12.1)."""
    contract = hand.contract
    assert contract is not None
    trump = None if contract.trump is None else contract.trump.letter
    points, tricks = [0, 0], [0, 0]
    plays = [(a.seat, a.card) for a in hand.actions if a.verb is Verb.PLAY and a.card]
    for start in range(0, 32, 4):
        trick = plays[start : start + 4]
        led = trick[0][1].suit.letter

        def rank(card: Card, led: str = led) -> tuple[int, int]:
            suit, letter = card.suit.letter, card.rank.letter
            if suit == trump:
                return (2, 8 - ORDER_TRUMP.index(letter))
            return (1, 8 - ORDER_PLAIN.index(letter)) if suit == led else (0, 0)

        winner = max(trick, key=lambda played: rank(played[1]))[0]
        team = winner.team
        for _, c in trick:
            table = TRUMP if c.suit.letter == trump else PLAIN
            points[team] += table[c.rank.letter]
        tricks[team] += 1
        if start == 28:
            points[team] += 10
    return points, tricks


def strength(p: Project, rules: Rules, trump: str | None) -> tuple[int, int, int, int]:
    """R10.6 steps 1–3 (and the trump priority flag)."""
    shape = 0
    if p.kind == ProjectKind.HUNDRED:
        four = p.suit is None
        shape = int(four != rules.hundred_sequence_beats_four_kind)
    in_trump = int(rules.trump_sequence_priority and p.suit is not None and trump == p.suit.letter)
    return (int(p.kind), shape, 7 - int(p.top), in_trump)


def expected(hand: Hand) -> tuple[object, ...]:
    rules = hand.rules
    contract = hand.contract
    assert contract is not None
    sun = contract.kind is ContractKind.SUN
    trump = None if contract.trump is None else contract.trump.letter
    order = [hand.dealer.after(i) for i in range(1, 5)]
    # R10.5–R10.6: the single best declared project, ties to the earlier seat from P1.
    best: tuple[tuple[int, int, int, int], int] | None = None
    winner_seat = None
    for place, seat in enumerate(order):
        declared = hand.declared(seat)
        if declared:
            key = (max(strength(p, rules, trump) for p in declared), -place)
            if best is None or key > best:
                best, winner_seat = key, seat
    shown_team = None if winner_seat is None else winner_seat.team
    shown: list[Project] = []
    if shown_team is not None:
        for seat in shown_team.seats:
            shown += list(hand.projects(seat))
    gp_of = {ProjectKind.SIRA: 2, ProjectKind.FIFTY: 5, ProjectKind.HUNDRED: 10}
    if sun:
        gp_of = {k: v * 2 for k, v in gp_of.items()} | {ProjectKind.FOUR_HUNDRED: 40}
    project_gp = sum(gp_of[p.kind] for p in shown)
    project_raw = sum(RAW[p.kind] for p in shown)
    # R11: Baloot, blocked by the holder's own shown Hundred with K-Q, four K or four Q.
    baloot = [0, 0]
    if not sun:
        for seat in Seat:
            full = hand.full_hand(seat)
            kq = {c.text for c in full if c.suit.letter == trump and c.rank.letter in "KQ"}
            if len(kq) < 2:
                continue
            blocked = False
            if seat.team == shown_team:
                for p in hand.projects(seat):
                    cards = {f"{c.rank.letter}{c.suit.letter}" for c in _cards(p)}
                    overlap = len(cards & kq)
                    if p.kind == ProjectKind.HUNDRED and (
                        overlap == 2 or (p.suit is None and p.top.letter in "KQ")
                    ):
                        blocked = True
                    if rules.baloot_blocked_by_partial_overlap and overlap == 1:
                        blocked = True
            if not blocked:
                baloot[seat.team] = 2
    points, tricks = card_points(hand)
    d = contract.declarer.team
    o = d.other
    level = int(contract.level)
    counting = d if level in (2, 4) else o
    last_caller = counting.other
    mult = (
        1
        if level == 1
        else {"x2": 2, "level": level, "x2_at_double_x1_above": 2 if level == 2 else 1}[
            rules.project_multiplier
        ]
    )
    score = [0, 0]
    if 8 in tricks:  # R12.8
        k = Team(tricks.index(8))
        if level == 5:
            return (k == d, k, (0, 0))
        base = 44 if sun else 25
        if level > 1 and rules.kaboot_multiplied:
            base *= 2 if sun else level
        if rules.kaboot_projects == "all" or (
            rules.kaboot_projects == "own_scored" and shown_team == k
        ):
            base += project_gp * mult
        score[k] = base + baloot[k]
        if rules.baloot_on_loss == "keep":
            score[k.other] = baloot[k.other]
        return (k == d, k, tuple(score))
    c = points[counting]
    if sun:
        digit = c % 10
        rounded = c - digit if 1 <= digit <= 4 else c + (10 - digit) if digit >= 6 else c
        g = rounded // 5
        cgp = {counting: g, counting.other: 26 - g}
    elif rules.hokum_pair_rounding:
        mine = {t: points[t] // 10 + (points[t] % 10 >= 6) for t in Team}
        if sum(mine.values()) == 17:
            loser = max(Team, key=lambda t: (points[t] % 10, points[t]))
            mine[loser] -= 1
        cgp = mine
    else:
        g = c // 10 + (c % 10 >= 6)
        cgp = {counting: g, counting.other: 16 - g}
    p_team = {t: cgp[t] + (project_gp if t == shown_team else 0) + baloot[t] for t in Team}
    doubled = level > 1
    if rules.win_comparison == "raw_points":
        raw = {
            t: points[t] + (project_raw if t == shown_team else 0) + 10 * baloot[t] for t in Team
        }
        if raw[d] != raw[o]:
            winner = d if raw[d] > raw[o] else o
        else:
            winner = counting if doubled and rules.doubled_exact_tie == "last_caller_loses" else d
    elif p_team[d] != p_team[o]:
        winner = d if p_team[d] > p_team[o] else o
    elif doubled and rules.doubled_exact_tie == "last_caller_loses":
        winner = last_caller.other
    else:
        digit = c % 10
        if sun:
            winner = counting if 1 <= digit <= 4 else counting.other if digit >= 6 else d
        else:
            winner = counting if 2 <= digit <= 5 else d if digit == 1 else counting.other
    if level == 5:
        return (winner == d, None, (0, 0))
    if not doubled and winner == d:
        return (True, None, (p_team[Team.NS], p_team[Team.EW]))
    loser = winner.other
    base = (26 if sun else 16) if not doubled else (52 if sun else 16 * level)
    score[winner] = base + project_gp * mult
    if rules.baloot_on_loss == "transfer":
        score[winner] += baloot[0] + baloot[1]
    else:
        score[winner] += baloot[winner]
        if rules.baloot_on_loss == "keep":
            score[loser] += baloot[loser]
    return (winner == d, None, tuple(score))


def _cards(p: Project) -> list[Card]:
    return [CARDS[i] for i in range(32) if p.mask >> i & 1]


@pytest.mark.parametrize("block", range(4))
def test_every_score_follows_the_literal_reading_of_r10_to_r12(block: int) -> None:
    compared = 0
    for seed in range(block * 400, block * 400 + 400):
        rng = random.Random(seed)
        rules = Rules.random(rng)
        before = rng.choice([(0, 0), (120, 80), (80, 120)])
        hand = Hand.new(rng=rng, rules=rules, score_before=before)
        while not hand.is_over:
            legal: Sequence[Action] = hand.legal_actions()
            calm = [a for a in legal if a.verb not in (Verb.SUN, Verb.ASHKAL)]
            if hand.contract is None and calm and rng.random() < 0.8:
                legal = calm
            declares = [a for a in legal if a.verb is Verb.DECLARE]
            hand.apply(
                rng.choice(declares) if declares and rng.random() < 0.8 else rng.choice(legal)
            )
        result = hand.result()
        if result.outcome is not Outcome.PLAYED:
            continue
        assert (result.made, result.kaboot, result.score) == expected(hand), (
            seed,
            rules,
            [str(a) for a in hand.actions],
        )
        compared += 1
    assert compared > 300
