"""Undo at a table with one human (``docs/table-protocol.md``), through the room's client: it takes
back the seat's decisions of the hand in play only, never across a hand-over (which reveals
the hand's fair secret, hence every card) nor the end of a match (whose record is kept)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_room import Client, Harness, types

from baloot import Seat
from baloot.server import Room
from baloot.server.journal import Step
from baloot.table import Player, WaitKind


def fair_room() -> tuple[Harness, Client]:
    """A room of one human (South) with fair deals, South connected."""
    harness = Harness(Room.create({Seat.S: Player.human("Saad")}))
    assert harness.room.table.fair is not None
    return harness, harness.connect(harness.room.tokens[Seat.S])


def play_until(harness: Harness, south: Client, kind: WaitKind, hand: int | None = None) -> None:
    """South plays its first legal action (and sends its entropy, and ``next``) until the
    table waits for ``kind``, in hand ``hand`` when given."""
    table = harness.room.table
    for _ in range(5000):
        harness.bots()
        waiting = table.waiting()
        if waiting.kind is kind and (hand is None or table.hand_number == hand):
            return
        harness.ids += 1
        if waiting.kind is WaitKind.DEAL:  # hand 1 waits for South's entropy
            entropy = {"type": "entropy", "id": f"e{harness.ids}", "hand": 1, "entropy": "9f"}
            harness.send(south, entropy)
        elif waiting.kind is WaitKind.NEXT:
            harness.send(south, {"type": "next", "id": f"n{harness.ids}", "entropy": "9f"})
        else:
            harness.play_first_legal(south)
    raise AssertionError(f"the table never waited for {kind}")


def undo(harness: Harness, south: Client) -> list[dict[str, Any]]:
    harness.ids += 1
    return harness.send(south, {"type": "undo", "id": f"u{harness.ids}"})


def test_undo_never_takes_back_a_hand_whose_secret_the_hand_over_revealed() -> None:
    harness, south = fair_room()
    table = harness.room.table
    play_until(harness, south, WaitKind.NEXT)
    revealed = next(m for m in reversed(south.messages) if m["type"] == "hand-over")
    assert revealed["fair"]["secret"]
    played = list(table.hand.actions)
    v = harness.room.v

    out = undo(harness, south)
    assert [(m["type"], m["code"]) for m in out] == [("reject", "hand_over")]
    assert table.hand.actions == played and table.hand.is_over
    assert harness.room.v == v and table.waiting().kind is WaitKind.NEXT

    play_until(harness, south, WaitKind.HUMAN, hand=2)  # South's first decision of hand 2
    out = undo(harness, south)
    assert [(m["type"], m["code"]) for m in out] == [("reject", "nothing_to_undo")]
    assert len(table.match.hands) == 2 and table.match.hands[0].actions == played

    harness.play_first_legal(south)  # within the hand in play, undo still works
    harness.bots()
    out = undo(harness, south)
    assert types(out)[:2] == ["ack", "snapshot"]
    assert len(table.match.hands) == 2 and table.match.hands[0].actions == played


def test_undo_never_reopens_a_match_that_is_over() -> None:
    harness, south = fair_room()
    table = harness.room.table
    play_until(harness, south, WaitKind.OVER)
    winner, hands, v = table.match.winner, len(table.match.hands), harness.room.v
    out = undo(harness, south)
    assert [(m["type"], m["code"]) for m in out] == [("reject", "match_over")]
    assert (table.match.winner, len(table.match.hands), harness.room.v) == (winner, hands, v)


def test_a_table_kept_with_an_undo_across_a_hand_over_comes_back_as_it_was_played(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A journal kept before undo stopped at the hand-over still restores, step for step."""
    harness, south = fair_room()
    room = harness.room
    play_until(harness, south, WaitKind.HUMAN, hand=2)
    monkeypatch.setattr(room.table, "undo", room.table.undo_stored)  # the old undo
    assert types(undo(harness, south))[:2] == ["ack", "snapshot"]
    assert len(room.table.match.hands) == 1
    _, steps = room.take_steps()
    kept = [Step.from_json(json.loads(json.dumps(step.to_json()))) for step in steps]
    config = room.config(timer=None, public=False, created=0.0)
    back = Room.from_config(config, kept)
    assert back.table.record() == room.table.record() and back.v == room.v
