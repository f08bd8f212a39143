"""A claim (Sawa) at a room's table: accepted, each of its actions carries the hand just
after it and the claim the claimant's cards; refused, it changes nothing."""

from __future__ import annotations

import pytest
from test_room import ALL_SPADES, sun_room

from baloot import IllegalActionError, Seat
from baloot.server.claims import claim


def test_an_accepted_claim_carries_each_hand_after_its_actions_and_the_claimants_cards() -> None:
    harness, _, _ = sun_room(ALL_SPADES, exposed="7s")
    table = harness.room.table
    cards, before = table.hand.hand(Seat.S), list(table.hand.actions)
    claimed = claim(table, Seat.S)
    assert claimed.cards == {Seat.S: cards}
    *played, over = claimed.events
    assert over.kind.value == "hand-over" and over.after is None
    for number, event in enumerate(played, len(before) + 1):
        assert event.after is not None and event.after is not table.hand
        assert event.after.actions == table.hand.actions[:number]
        assert event.after.actions[-1] == event.action


def test_a_claim_that_does_not_hold_changes_nothing() -> None:
    hands = dict(ALL_SPADES, S="As Ks Qs Js Ts 9s 8s 7c", E="Ac Kc Qc Jc Tc 9c 8c 7s")
    harness, _, _ = sun_room(hands, exposed="8s")
    table = harness.room.table
    actions = list(table.hand.actions)
    with pytest.raises(IllegalActionError, match="not sure to win"):
        claim(table, Seat.S)
    assert list(table.hand.actions) == actions
