"""The turns a room's bots take (:class:`BotTurns`): decided here or elsewhere, a stand-in
when a decision does not come back, and a human's time-out; each one a step."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

import pytest

from baloot import Seat
from baloot.bots.base import make_bot
from baloot.bots.decisions import Decision
from baloot.bots.levels import ROLES
from baloot.core.actions import Action
from baloot.core.hand import Hand
from baloot.server import Room
from baloot.table import Player, WaitKind
from baloot.view.seat_view import SeatView


def searching_room() -> Room:
    players = {Seat.S: Player.human("Saad"), Seat.N: Player.bot("medium")}
    return Room.create(players, seed=5, room_id="t2")


def to_north(room: Room) -> None:
    while room.table.waiting().seat is not Seat.N:
        if room.table.waiting().kind is WaitKind.HUMAN:
            room.time_out(Seat.S)
        else:
            room.bots.step_bot()


def test_a_quick_bot_decides_here_and_its_turn_is_a_step() -> None:
    room = Room.create({Seat.N: Player.human("Saad")}, seed=3)
    room.take_steps()
    assert room.bots.waiting_for_bot() and room.bots.bot_task(seconds=5) is None
    room.bots.step_bot()
    _, steps = room.take_steps()
    assert [step.kind.value for step in steps] == ["bot"]


def test_a_decision_made_elsewhere_is_played_while_the_table_still_asks_it() -> None:
    room = searching_room()
    to_north(room)
    task = room.bots.bot_task(seconds=5)
    assert task is not None and room.bots.still_asks(task)
    room.bots.play_decided(task, Decision(task.legal[0], task.rng_state))
    assert room.table.hand.actions[-1] == task.legal[0]
    assert not room.bots.still_asks(task)


def test_the_stand_in_decides_for_a_bot_whose_decision_did_not_come_back() -> None:
    room = searching_room()
    to_north(room)
    room.connect(None)  # a spectator hears the seat messages
    out = room.bots.stand_in_decides(Seat.N)
    told = [(m["type"], m.get("connected")) for _, m in out]
    assert told[0] == ("seat", False) and told[-1] == ("seat", True)
    assert room.table.hand.actions[-1].seat is Seat.N
    assert room.bots.stand_in_decides(Seat.N) == []  # no longer its turn


def test_a_human_out_of_time_is_played_for_and_the_event_says_timeout() -> None:
    room = Room.create({Seat.S: Player.human("Saad")}, seed=3)
    south, _ = room.connect(room.tokens[Seat.S])
    while room.bots.waiting_for_bot():
        room.bots.step_bot()
    out = room.bots.time_out(Seat.S)
    events = [m for c, m in out if c is south and m["type"] == "event"]
    assert events[0]["timeout"] is True and events[0]["action"].startswith("S ")
    assert room.bots.time_out(Seat.N) == []  # a bot's seat is never timed out


def test_a_stand_in_decides_from_its_seat_s_view_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """The stand-in (``ROLES.stand_in``) for a bot that did not answer and for a human out of
    time is given the seat's view, which holds none of the cards the other seats still hold:
    it never sees hidden cards, so the collusion screen need not tell its leads apart."""
    seen: list[tuple[SeatView, Hand]] = []
    stand_in = type(make_bot(ROLES.stand_in, random.Random(1)))
    choose = stand_in.choose

    def recording(self: object, view: SeatView, legal: Sequence[Action]) -> Action:
        seen.append((view, room.table.hand.copy()))
        return choose(self, view, legal)  # type: ignore[arg-type]

    monkeypatch.setattr(stand_in, "choose", recording)
    room = searching_room()
    to_north(room)
    room.bots.stand_in_decides(Seat.N)
    to_south(room)
    assert {view.seat for view, _ in seen} >= {Seat.N, Seat.S}
    for view, hand in seen:
        assert isinstance(view, SeatView)
        seat = view.seat
        assert seat is not None and view == SeatView.of(hand, seat)
        hidden = [card for other in Seat if other != seat for card in hand.hand(other)]
        assert hidden and not any(card in view.cards for card in hidden)
        told = json.dumps(view.to_json())
        assert not any(f'"{card.text}"' in told or f" {card.text}" in told for card in hidden)


def to_south(room: Room) -> None:
    """Bots play until South, a human, is to act; then South runs out of time."""
    while room.table.waiting().seat is not Seat.S:
        room.bots.step_bot()
    room.time_out(Seat.S)
