"""The search position of the core: it plays as the hand plays, for less.

Every check drives a :class:`Hand` and a :class:`Position` side by side through random hands
(random rules, bidding and doubling included) and asks that they agree: legal cards, Ekka
leads, tricks, card points; that undo restores, copies are independent, keys identify the rest
of the play and a playout leaves the position as it was.
"""

from __future__ import annotations

import random

import pytest

from baloot import Hand, Phase, Rules, Verb
from baloot.core.cards import CARDS


def hand_in_play(rng: random.Random) -> Hand:
    """A random hand in its play phase: random rules, random calls (doubling favoured, so
    that locked games and every level come up)."""
    while True:
        hand = Hand.new(rng=rng, rules=Rules.random(rng), dealer=rng.choice("NWSE"))
        while hand.phase is not Phase.PLAYING and not hand.is_over:
            legal = hand.legal_actions()
            if hand.phase is Phase.DOUBLING:
                raises = [a for a in legal if a.verb is not Verb.PASS]
                if raises and rng.random() < 0.7:
                    hand.apply(rng.choice(raises))
                    continue
            hand.apply(rng.choice(legal))
        if hand.phase is Phase.PLAYING:
            return hand


def plays_of(hand: Hand) -> tuple[int, int]:
    """The hand's legal cards and legal Ekka leads, as masks."""
    cards = ekkas = 0
    for action in hand.legal_actions():
        if action.card is not None:
            if action.ekka:
                ekkas |= action.card.bit
            else:
                cards |= action.card.bit
    return cards, ekkas


@pytest.mark.parametrize("seed", range(40))
def test_a_position_plays_as_its_hand_plays(seed: int) -> None:
    rng = random.Random(seed)
    hand = hand_in_play(rng)
    position = hand.position()
    while not hand.is_over:
        assert position.to_act == int(hand.to_act or 0)
        assert (position.legal(), position.ekka()) == plays_of(hand)
        assert position.trick == tuple(c.index for _, c in hand.current_trick)
        action = rng.choice([a for a in hand.legal_actions() if a.card is not None])
        assert action.card is not None
        hand.apply(action)
        position.play(action.card.index, action.ekka)
        assert position.card_points() == hand.card_points()
        assert position.tricks() == hand.tricks_won
        assert position.trick_number == hand.trick_number
    assert position.is_over and position.to_act == -1 and position.legal() == 0


@pytest.mark.parametrize("seed", range(20))
def test_undo_restores_the_position_and_its_key(seed: int) -> None:
    rng = random.Random(seed)
    position = hand_in_play(rng).position()
    seen = []
    while not position.is_over:
        seen.append((position.key(), position.legal(), position.card_points()))
        legal = position.legal()
        cards = [c for c in range(32) if legal >> c & 1]
        position.play(rng.choice(cards))
    for key, legal, points in reversed(seen):
        position.undo()
        assert (position.key(), position.legal(), position.card_points()) == (key, legal, points)
    with pytest.raises(ValueError, match="no card to take back"):
        position.undo()


def test_a_copy_is_independent() -> None:
    position = hand_in_play(random.Random(5)).position()
    other = position.copy()
    legal = position.legal()
    card = (legal & -legal).bit_length() - 1
    position.play(card)
    assert other.key() != position.key()
    assert other.legal() == legal
    position.undo()
    assert other.key() == position.key()


def test_a_key_tells_apart_every_position_of_a_play() -> None:
    """Along a play every position has its own key; the points already taken are not in it
    (the rest of the play does not depend on them)."""
    rng = random.Random(11)
    for _ in range(20):
        position = hand_in_play(rng).position()
        keys = set()
        while not position.is_over:
            keys.add(position.key())
            legal = position.legal()
            position.play(rng.choice([c for c in range(32) if legal >> c & 1]))
        assert len(keys) == 32


@pytest.mark.parametrize("seed", range(10))
def test_a_playout_plays_legally_to_the_end_and_changes_nothing(seed: int) -> None:
    hand = hand_in_play(random.Random(seed))
    position = hand.position()
    key = position.key()
    ns, ew = position.playout(random.Random(seed))
    total = 130 if position.trump < 0 else 162
    assert ns + ew == total
    assert position.key() == key
    assert position.playout(random.Random(seed)) == (ns, ew)


def test_a_position_is_taken_in_the_play_phase() -> None:
    hand = Hand.new(rng=random.Random(1))
    with pytest.raises(ValueError, match="play phase, not in bidding-1"):
        hand.position()


def test_an_illegal_card_or_ekka_is_refused() -> None:
    hand = Hand.from_deck(" ".join(c.text for c in CARDS), dealer="E")
    hand.apply("N hokum")
    while hand.phase is not Phase.PLAYING:
        hand.apply(next(a for a in hand.legal_actions() if a.verb is Verb.PASS))
    position = hand.position()
    held = position.hand(position.to_act)
    not_held = next(c for c in range(32) if not held >> c & 1)
    with pytest.raises(ValueError, match="may not be played now"):
        position.play(not_held)
    with pytest.raises(ValueError, match="may not be played now"):
        position.play(40)
    legal = position.legal()
    card = (legal & -legal).bit_length() - 1
    with pytest.raises(ValueError, match="not a valid Ekka lead"):
        position.play(card, ekka=True)
