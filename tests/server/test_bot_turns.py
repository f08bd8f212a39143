"""The turns a room's bots take (:class:`BotTurns`): decided here or elsewhere, a stand-in
when a decision does not come back, and a human's time-out; each one a step."""

from __future__ import annotations

from baloot import Seat
from baloot.bots.decisions import Decision
from baloot.server import Room
from baloot.table import Player, WaitKind


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
