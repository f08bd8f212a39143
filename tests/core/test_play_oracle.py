"""R9 legality written again, naively and straight from the text, against the engine.

The engine computes legal cards with bit masks; this oracle walks R9.3–R9.5 card by card.
Over many random positions under random flags both must agree exactly.
"""

from __future__ import annotations

import random

import pytest

from baloot import Card, Hand, Rules, Seat, Verb
from baloot.core.cards import CARDS

RANKS_TRUMP = "J9ATKQ87"
RANKS_PLAIN = "ATKQJ987"


def beats(card: Card, best: Card, trump: str | None) -> bool:
    """R9.2: does ``card`` beat ``best`` (the card winning the trick so far)?"""
    c_suit, b_suit = card.suit.letter, best.suit.letter
    if c_suit == b_suit:
        order = RANKS_TRUMP if c_suit == trump else RANKS_PLAIN
        return order.index(card.rank.letter) < order.index(best.rank.letter)
    return c_suit == trump


def oracle(hand: Hand) -> set[str]:
    """The legal cards of the seat to act, by R9.3–R9.4 read literally."""
    seat = hand.to_act
    assert seat is not None and hand.contract is not None
    held = list(hand.hand(seat))
    trick = hand.current_trick
    trump = None if hand.contract.trump is None else hand.contract.trump.letter
    rules = hand.rules
    names = {c.text for c in held}
    if not trick:
        if trump and hand.contract.locked and any(c.suit.letter != trump for c in held):
            return {c.text for c in held if c.suit.letter != trump}
        return names
    led = trick[0][1].suit.letter
    follow = {c.text for c in held if c.suit.letter == led}
    if trump is None:
        return follow or names
    best_seat, best = trick[0]
    for s, c in trick[1:]:
        if beats(c, best, trump):
            best_seat, best = s, c
    partner_winning = best_seat.team == seat.team
    trumps = [c for c in held if c.suit.letter == trump]
    higher = {c.text for c in trumps if best.suit.letter != trump or beats(c, best, trump)}
    if led == trump:
        if not trumps:
            return names
        if not partner_winning and higher:
            return higher
        return {c.text for c in trumps}
    if follow:
        return follow
    if not trumps:
        return names
    if partner_winning:
        lead_action = next(
            a for a in reversed(hand.actions) if a.verb is Verb.PLAY and a.card == trick[0][1]
        )
        partner_led = len(trick) == 2
        freed = trick[0][1].rank.letter == "A" or lead_action.ekka
        if partner_led and rules.partner_led_must_trump and not freed:
            return {c.text for c in trumps}
        return names
    if best.suit.letter == trump:
        if higher:
            return higher
        return {c.text for c in trumps} if rules.must_undertrump else names
    return {c.text for c in trumps}


def ekka_oracle(hand: Hand) -> set[str]:
    """R9.5: valid Ekka leads, from the cards played in earlier tricks."""
    contract = hand.contract
    if contract is None or contract.trump is None or hand.current_trick:
        return set()
    seat = hand.to_act
    assert seat is not None
    gone = {c for trick in hand.tricks() if trick.winner is not None for c in trick.cards}
    valid = set()
    for card in hand.hand(seat):
        if card.suit == contract.trump or card.rank.letter == "A":
            continue
        better = RANKS_PLAIN[: RANKS_PLAIN.index(card.rank.letter)]
        if all(CARDS[card.suit * 8 + "AKQJT987".index(r)] in gone for r in better):
            valid.add(card.text)
    return valid


@pytest.mark.parametrize("block", range(4))
def test_engine_legal_plays_match_the_literal_reading_of_r9(block: int) -> None:
    checked = 0
    for seed in range(block * 150, block * 150 + 150):
        rng = random.Random(seed)
        hand = Hand.new(rng=rng, rules=Rules.random(rng))
        while not hand.is_over:
            legal = hand.legal_actions()
            if hand.phase.value == "playing":
                plays = {a.card.text for a in legal if a.verb is Verb.PLAY and a.card}
                assert plays == oracle(hand), (seed, [str(a) for a in hand.actions])
                ekkas = {a.card.text for a in legal if a.ekka and a.card}
                assert ekkas == ekka_oracle(hand), (seed, [str(a) for a in hand.actions])
                checked += 1
            calm = [a for a in legal if a.verb not in (Verb.SUN, Verb.ASHKAL)]
            pick = rng.choice(calm) if calm and hand.contract is None else rng.choice(legal)
            hand.apply(pick)
    assert checked > 4000


def test_the_oracle_itself_reads_example_l1() -> None:
    """L1 of rules.md §3.2 through the oracle (so that the oracle is checked too)."""
    # N leads K♣, W plays 7♣; S holds Q♥ A♠ 8♦ (trump ♥) and must trump.
    deck = ("Kc Ah 7s 7c Ac Jc Qh As 8d Td 9d 8c "
            "Ks Qs 8h 7h Js Ts 9s 8s 9h 7d Ad Kd Qd Jd Kh Jh Th Tc Qc 9c")  # fmt: skip
    hand = Hand.from_deck(deck, dealer="E")
    for call in ("N pass", "W pass", "S hokum", "E pass", "N pass", "W pass", "S pass"):
        hand.apply(call)
    for call in ("W pass", "E pass"):
        hand.apply(call)
    assert hand.contract is not None and hand.contract.trump is not None
    assert hand.contract.trump.letter == "h"
    hand.apply("N play Kc")
    hand.apply("W play 7c")
    held = {c.text for c in hand.hand(Seat.S)}
    trumps = {t for t in held if t.endswith("h")}
    assert oracle(hand) == trumps and trumps
