"""The readable replay of a hand: deal, bidding, tricks, and how the score was reached."""

from __future__ import annotations

from itertools import takewhile

from baloot.core.actions import Verb
from baloot.core.cards import CARDS, CardSet
from baloot.core.hand import Hand
from baloot.core.projects import Project
from baloot.core.scoring import HandResult, project_multiplier
from baloot.core.seats import Seat, Team
from baloot.core.vocabulary import ContractKind, Level, Outcome


def _cards(cards: CardSet) -> str:
    return " ".join(c.pretty for c in cards)


def _project(p: Project) -> str:
    return f"{p.kind.word} ({' '.join(CARDS[i].pretty for i in _bits(p.mask))})"


def _bits(mask: int) -> list[int]:
    return [i for i in range(32) if mask >> i & 1]


def render_hand(number: int, hand: Hand, result: HandResult) -> list[str]:
    """The lines of one hand's sheet."""
    lines = [f"Hand {number} · dealer {hand.dealer.name} · {result.outcome}"]
    lines.append(f"  exposed card {hand.exposed.pretty}")
    contract = hand.contract
    for seat in Seat:
        held = hand.full_hand(seat) if contract is not None else hand.hand(seat)
        label = "dealt" if contract is not None else "first five"
        lines.append(f"  {seat.name} {label}: {_cards(held)}")
    actions = hand.actions
    bid_length = hand.bidding_length
    bidding = actions if bid_length is None else actions[:bid_length]
    rest = [] if bid_length is None else actions[bid_length:]
    doubling = list(takewhile(lambda a: a.verb not in (Verb.PLAY, Verb.DECLARE), rest))
    plays = rest[len(doubling) :]
    if bidding:
        lines.append("  bidding: " + ", ".join(str(a) for a in bidding))
    if contract is not None:
        trump = f" {contract.trump.symbol}" if contract.trump is not None else ""
        level = {1: "not doubled", 2: "doubled", 3: "tripled", 4: "four", 5: "gahwa"}
        lock = ", locked" if contract.locked else ""
        lines.append(
            f"  contract: {contract.kind.value}{trump} by {contract.declarer.name} "
            f"({contract.declarer.team.name}), {level[contract.level]}{lock}"
        )
    if doubling:
        lines.append("  doubling: " + ", ".join(str(a) for a in doubling))
    trick: list[str] = []
    trick_no = 0
    for action in plays:
        if action.verb is Verb.DECLARE:
            trick.append(f"{action.seat.name} declares {' '.join(str(c) for c in action.claims)}")
            continue
        card = "??" if action.card is None else action.card.pretty
        extra = "".join(
            f" {w}" for w, on in (("ekka", action.ekka), ("baloot", action.baloot)) if on
        )
        trick.append(f"{action.seat.name} {card}{extra}")
        if sum(1 for t in trick if " declares " not in t) == 4:
            trick_no += 1
            lines.append(f"  trick {trick_no}: " + ", ".join(trick))
            trick = []
    if trick:
        lines.append(f"  trick {trick_no + 1} (in progress): " + ", ".join(trick))
    lines.extend(_score_lines(hand, result))
    return lines


def _score_lines(hand: Hand, result: HandResult) -> list[str]:
    lines = [
        f"  tricks: NS {result.tricks[0]}, EW {result.tricks[1]}; "
        f"card points: NS {result.card_points[0]}, EW {result.card_points[1]}"
    ]
    if result.outcome is Outcome.IN_PROGRESS:
        seat = hand.to_act
        if seat is not None:
            legal = ", ".join(sorted(str(a) for a in hand.legal_actions()))
            lines.append(f"  {seat.name} to act; legal: {legal}")
        return lines
    if result.outcome is Outcome.ANNULLED:
        lines.append("  no contract: the hand is annulled, no score")
        return lines
    sheet = result.scoring
    contract = result.contract
    if sheet is None or contract is None:
        return lines
    sun = contract.kind is ContractKind.SUN
    for team in Team:
        if result.projects[team]:
            shown = "; ".join(_project(p) for p in result.projects[team])
            points = sum(p.kind.game_points(sun) for p in result.projects[team])
            lines.append(f"  projects shown by {team.name}: {shown} = {points} game points")
        if result.baloot[team]:
            lines.append(f"  baloot: {team.name} +2")
    if sheet.kaboot is not None:
        lines.append(f"  al-kaboot: {sheet.kaboot.name} took all eight tricks")
    else:
        counting = sheet.counting_team
        c = result.card_points[counting]
        rounding = (
            "Sun: to the nearest 10 keeping a 5, then ÷5" if sun else "Hokum: a 5 rounds down"
        )
        counted, other = sheet.card_game_points[counting], sheet.card_game_points[counting.other]
        lines.append(
            f"  counting team {counting.name}: {c} card points → {counted} "
            f"({rounding}); {counting.other.name} gets {other}"
        )
        lines.append(
            f"  game points: NS {sheet.game_points[0]}, EW {sheet.game_points[1]} "
            f"(decided by {sheet.decided_by.value})"
        )
    made = "made" if sheet.made else "failed"
    lines.append(
        f"  declarers {contract.declarer.team.name} {made}; hand won by {sheet.winner.name}"
    )
    level = hand.contract.level if hand.contract else 1
    numeric = int(level)
    if numeric == Level.GAHWA:
        lines.append(f"  gahwa: {sheet.winner.name} wins the match")
    elif numeric > 1:
        factor = project_multiplier(hand.rules, numeric)
        lines.append(f"  doubled ×{numeric}: projects ×{factor}, the loser writes 0")
    score = result.score or (0, 0)
    lines.append(f"  score: NS {score[0]}, EW {score[1]}")
    return lines
