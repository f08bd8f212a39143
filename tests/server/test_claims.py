"""A claim (Sawa) at a room's table: accepted, it carries the hand before it and the
claimant's cards; refused, it changes nothing."""

from __future__ import annotations

import pytest
from test_room import ALL_SPADES, sun_room

from baloot import IllegalActionError, Seat
from baloot.server.claims import claim


def test_an_accepted_claim_carries_the_hand_before_it_and_the_claimants_cards() -> None:
    harness, _, _ = sun_room(ALL_SPADES, exposed="7s")
    table = harness.room.table
    cards, before = table.hand.hand(Seat.S), list(table.hand.actions)
    claimed = claim(table, Seat.S)
    assert claimed.cards == {Seat.S: cards}
    assert list(claimed.before.actions) == before
    assert claimed.events[-1].kind.value == "hand-over"


def test_a_claim_that_does_not_hold_changes_nothing() -> None:
    hands = dict(ALL_SPADES, S="As Ks Qs Js Ts 9s 8s 7c", E="Ac Kc Qc Jc Tc 9c 8c 7s")
    harness, _, _ = sun_room(hands, exposed="8s")
    table = harness.room.table
    actions = list(table.hand.actions)
    with pytest.raises(IllegalActionError, match="not sure to win"):
        claim(table, Seat.S)
    assert list(table.hand.actions) == actions
