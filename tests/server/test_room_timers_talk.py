"""The table's clock and its talk as a :class:`Room` speaks them (docs/table-protocol.md, "Timers,
table talk and fair deals"): the ``deadline`` of every message and the ``now`` of a snapshot
and a pong, read from a fake clock; the ``timeout`` of a decision made for a late human; a
dropped human played for at once after their first missed turn; the wait for ``next``; and
``say``/``said`` with their limits, in resync and after a restart."""

from __future__ import annotations

import json
from typing import Any

from test_room import Client, Harness, hand_over, types

from baloot import Seat
from baloot.records.record import loads
from baloot.records.writer import dumps
from baloot.server import Room
from baloot.server.deadlines import DeadlineKind, Timing
from baloot.server.presence import PRESENCE_EVERY
from baloot.server.talk import MAX_SAID
from baloot.table import Player, WaitKind

T = 1_764_600_000.0
MS = int(T * 1000)


class FakeClock:
    """A clock that moves only when the test says."""

    def __init__(self) -> None:
        self.now = T

    def __call__(self) -> float:
        return self.now


def room_of(humans: tuple[Seat, ...], clock: FakeClock, timer: float | None = None) -> Room:
    players = {seat: Player.human(f"P{seat.name}") for seat in humans}
    timing = Timing(turn=timer, absent=30.0, next=30.0)
    return Room.create(players, seed=3, timing=timing, clock=clock)


def human_to_act(
    timer: float | None = None, humans: tuple[Seat, ...] = (Seat.S,)
) -> tuple[Harness, dict[Seat, Client], FakeClock]:
    """A room whose bots have acted until a human is to act, every human connected."""
    clock = FakeClock()
    harness = Harness(room_of(humans, clock, timer))
    clients = {seat: harness.connect(harness.room.tokens[seat]) for seat in humans}
    harness.bots()
    assert harness.room.table.waiting().kind is WaitKind.HUMAN
    return harness, clients, clock


def deadline(kind: str, seat: str | None, after: float) -> dict[str, Any]:
    return {"kind": kind, "seat": seat, "at": MS + int(after * 1000)}


def said(harness: Harness, client: Client, text: str, id_: str) -> list[dict[str, Any]]:
    return harness.send(client, {"type": "say", "id": id_, "text": text})


# --------------------------------------------------------------------------- deadlines


def test_a_turn_timer_gives_the_turn_its_deadline_and_the_snapshot_the_servers_now() -> None:
    harness, clients, clock = human_to_act(timer=15)
    south = clients[Seat.S]
    assert south.messages[-1]["deadline"] == deadline("turn", "S", 15)
    clock.now = T + 4.5
    again = harness.connect(harness.room.tokens[Seat.S])
    snapshot = again.messages[0]
    assert snapshot["deadline"] == deadline("turn", "S", 15)  # the time really left: 10.5 s
    assert snapshot["now"] == MS + 4500
    (pong,) = harness.send(south, {"type": "ping"})
    assert pong == {"type": "pong", "now": MS + 4500}


def test_without_a_timer_a_connected_humans_turn_and_a_bots_have_no_deadline() -> None:
    harness, clients, _ = human_to_act()
    assert harness.room.deadline() is None
    assert all(m.get("deadline") is None for m in clients[Seat.S].numbered)


def test_the_decision_a_bot_makes_for_a_late_human_says_timeout_and_no_other_does() -> None:
    harness, clients, clock = human_to_act(timer=15)
    clock.now = T + 15
    out = harness.deliver(harness.room.time_out(Seat.S))
    (played,) = [m for m in out if m["type"] == "event"]
    assert played["action"].startswith("S ") and played["timeout"] is True
    harness.bots()
    assert all("timeout" not in m for m in clients[Seat.S].numbered if m is not played)


def test_a_dropped_human_waits_30_s_once_then_is_played_for_at_once_until_back() -> None:
    harness, clients, clock = human_to_act(humans=(Seat.S, Seat.N))
    room = harness.room
    waiting = room.table.waiting().seat
    assert waiting is not None
    other = clients[Seat.N if waiting is Seat.S else Seat.S]
    clock.now = T + 5  # the turn began at T; the wait counts from there
    (left,) = harness.deliver(room.disconnect(clients[waiting].connection))
    assert left["deadline"] == deadline("stand-in", waiting.name, 30)
    clock.now = T + 30
    out = harness.deliver(room.time_out(waiting))
    assert [m["player"] for m in out if m["type"] == "seat"] == ["bot:heuristic"]
    assert next(m for m in out if m["type"] == "event")["timeout"] is True
    at_once, stamp = 0, clock.now  # stamp: when the last step was taken
    while at_once < 3:  # the seat's next turns: each deadline is when the turn began
        to_act = room.table.waiting()
        clock.now = stamp + 7
        if to_act.seat == waiting:
            expected = deadline("stand-in", waiting.name, stamp - T)
            assert other.numbered[-1]["deadline"] == expected
            assert room.deadline().to_json() == expected  # type: ignore[union-attr]
            assert "seat" not in types(harness.deliver(room.time_out(waiting)))
            at_once += 1
        elif to_act.kind is WaitKind.NEXT:
            harness.deliver(room.deal())
        elif to_act.kind is WaitKind.HUMAN:
            harness.play_first_legal(other)
        else:
            harness.bots()
        stamp = clock.now
    back = harness.connect(room.tokens[waiting])
    assert back.messages[0]["seats"][waiting.name]["player"] == f"P{waiting.name}"
    assert other.numbered[-1]["type"] == "seat" and other.numbered[-1]["connected"] is True
    if room.table.waiting().seat == waiting:
        assert room.deadline() is None  # theirs again, waited for


def test_the_one_human_of_a_table_is_waited_for_at_the_hand_over() -> None:
    harness, clients, clock = human_to_act()
    hand_over(harness, clients[Seat.S])
    over = clients[Seat.S].messages[-1]
    assert over["type"] == "hand-over" and over["deadline"] is None
    clock.now = T + 3600
    assert harness.room.deadline() is None


def test_a_table_of_two_humans_deals_30_s_after_the_hand_over_whoever_is_ready() -> None:
    harness, clients, clock = human_to_act(humans=(Seat.S, Seat.N))
    room = harness.room
    while room.table.waiting().kind is not WaitKind.NEXT:
        clock.now += 1
        to_act = room.table.waiting()
        if to_act.kind is WaitKind.HUMAN and to_act.seat is not None:
            harness.play_first_legal(clients[to_act.seat])
        harness.bots()
    ended = clock.now
    over = clients[Seat.S].messages[-1]
    assert over["type"] == "hand-over"
    assert over["deadline"] == deadline("next", None, ended - T + 30)
    clock.now += 10
    out = harness.send(clients[Seat.S], {"type": "next", "id": "n1"})
    assert types(out) == ["ack"] and room.match_json()["awaiting_next"] == ["N"]
    assert room.deadline().to_json() == deadline("next", None, ended - T + 30)  # type: ignore[union-attr]
    (dealt,) = harness.deliver(room.deal())[:1]
    assert dealt["type"] == "deal" and dealt["match"]["hand"] == 2


# --------------------------------------------------------------------------- table talk


def test_a_line_said_reaches_every_connection_numbered_like_an_event() -> None:
    harness, clients, _ = human_to_act()
    south = clients[Seat.S]
    spectator = harness.connect(None)
    v = harness.room.v
    out = said(harness, south, "يا هلا", "m1")
    assert types(out) == ["ack", "said", "said"]
    assert out[1] == {"type": "said", "v": v + 1, "seat": "S", "text": "يا هلا"}
    assert spectator.messages[-1] == out[1] and harness.room.v == v + 1


def test_a_spectator_reads_the_talk_but_may_not_talk() -> None:
    harness, _, _ = human_to_act()
    spectator = harness.connect(None)
    (refused,) = said(harness, spectator, "hello", "m1")
    assert (refused["type"], refused["code"], refused["id"]) == ("reject", "spectator", "m1")


def test_a_line_is_1_to_200_characters_after_nfc_with_no_control_character() -> None:
    harness, clients, _ = human_to_act()
    south = clients[Seat.S]
    v = harness.room.v
    for bad in ("", "x" * (MAX_SAID + 1), "two\nlines", "bell\x07", 7):
        (refused,) = said(harness, south, bad, "m1")  # type: ignore[arg-type]
        assert (refused["code"], refused["id"]) == ("bad_message", "m1")
        assert "\n" not in refused["reason"] and refused["reason"]
    assert harness.room.v == v
    composed = said(harness, south, "e\u0301" * MAX_SAID, "m2")  # 400 code points, 200 after NFC
    assert composed[1]["text"] == "\u00e9" * MAX_SAID


def test_a_seat_says_at_most_one_line_every_2_s() -> None:
    harness, clients, clock = human_to_act(humans=(Seat.S, Seat.N))
    assert types(said(harness, clients[Seat.S], "سوا", "m1"))[:2] == ["ack", "said"]
    clock.now += 1.5
    (limited,) = said(harness, clients[Seat.S], "well played", "m2")
    assert (limited["code"], limited["id"]) == ("rate_limited", "m2")
    assert types(said(harness, clients[Seat.N], "ابشر", "m1"))[:2] == ["ack", "said"]
    clock.now += 0.5
    assert types(said(harness, clients[Seat.S], "well played", "m2"))[:2] == ["ack", "said"]


def test_a_repeated_say_id_is_acknowledged_and_not_said_twice() -> None:
    harness, clients, clock = human_to_act()
    said(harness, clients[Seat.S], "👍", "m1")
    clock.now += 5
    assert types(said(harness, clients[Seat.S], "👍", "m1")) == ["ack"]


def test_a_resync_resends_the_lines_said_and_a_snapshot_holds_the_talk() -> None:
    harness, clients, _ = human_to_act()
    south = clients[Seat.S]
    since = south.v
    said(harness, south, "الله يعطيك العافية", "m1")
    out = harness.send(south, {"type": "resync", "since": since})
    assert types(out) == ["said"] and out[0]["text"] == "الله يعطيك العافية"
    late = harness.connect(None)
    assert late.messages[0]["talk"] == [
        {"v": out[0]["v"], "seat": "S", "text": "الله يعطيك العافية"}
    ]


def test_the_talk_is_stored_and_comes_back_after_a_restart_not_in_the_record() -> None:
    harness, clients, clock = human_to_act()
    room = harness.room
    said(harness, clients[Seat.S], "well played", "m1")
    _, steps = room.take_steps()
    config = room.config(timer=None, public=False, created=0.0)
    assert [step.to_json() for step in steps if step.text is not None] == [
        {"kind": "say", "v": room.v, "seat": "S", "id": "m1", "actions": [], "text": "well played"}
    ]
    again = Room.from_config(config, steps, clock=clock)
    assert again.v == room.v and again.talk.to_json() == room.talk.to_json()
    client = Harness(again).connect(None)
    assert client.messages[0]["talk"][-1]["text"] == "well played"
    assert "well played" not in json.dumps(str(again.table.record()))


def test_a_dropped_human_played_for_is_still_played_for_at_once_after_a_restart() -> None:
    harness, clients, clock = human_to_act()
    room = harness.room
    harness.deliver(room.disconnect(clients[Seat.S].connection))
    clock.now = T + 30
    harness.deliver(room.time_out(Seat.S))
    _, steps = room.take_steps()
    config = room.config(timer=None, public=False, created=0.0)
    clock.now = T + 100
    again = Room.from_config(config, steps, clock=clock)
    assert again.seats_json()["S"] == {"player": "bot:heuristic", "connected": False}
    while again.table.waiting().kind is not WaitKind.HUMAN:
        if again.table.waiting().kind is WaitKind.NEXT:
            again.deal()
        else:
            again.step_bot()
    assert again.deadline().to_json() == deadline("stand-in", "S", 100)  # type: ignore[union-attr]


# --------------------------------------------------------------------------- presence


def test_a_seat_that_connects_and_closes_in_a_loop_is_told_once_an_interval_and_stored_so() -> None:
    """A reconnect loop is coalesced: no ``seat`` message and no step while the seat's
    interval runs, then one for what holds at its end, and none for a change undone."""
    harness, clients, clock = human_to_act()
    room = harness.room
    spectator = harness.connect(None)
    room.take_steps()
    harness.deliver(room.disconnect(clients[Seat.S].connection))  # told at T: its news waits
    for turn in range(200):
        clock.now = T + turn * 0.01
        looping = harness.connect(room.tokens[Seat.S])
        harness.deliver(room.disconnect(looping.connection))
    assert "seat" not in types(spectator.messages)
    assert room.take_steps()[1] == []
    assert room.presence_due() == T + PRESENCE_EVERY
    assert harness.connect(None).messages[0]["seats"]["S"]["connected"] is False  # as it is
    clock.now = T + PRESENCE_EVERY
    (left,) = harness.deliver(room.tell_presence())[:1]
    assert (left["type"], left["seat"], left["connected"]) == ("seat", "S", False)
    assert [step.kind.value for step in room.take_steps()[1]] == ["seat"]
    clock.now += 1
    back = harness.connect(room.tokens[Seat.S])
    harness.deliver(room.disconnect(back.connection))  # back and gone again: no news
    assert room.presence_due() is None and room.tell_presence() == []


def test_a_seat_whose_stand_in_plays_for_it_counts_as_ready_for_the_next_hand() -> None:
    """A friend dropped and played for by their stand-in is not waited for after the hand:
    the hand is dealt as soon as the humans who are here are ready."""
    harness, clients, _ = human_to_act(humans=(Seat.S, Seat.N))
    room = harness.room
    harness.deliver(room.disconnect(clients[Seat.N].connection))
    while room.table.waiting().kind is not WaitKind.NEXT:
        to_act = room.table.waiting()
        if to_act.seat is Seat.N:
            harness.deliver(room.time_out(Seat.N))
        elif to_act.seat is Seat.S:
            harness.play_first_legal(clients[Seat.S])
        else:
            harness.bots()
    assert room.seating.stood_in(Seat.N)
    out = harness.send(clients[Seat.S], {"type": "next", "id": "n1"})
    assert types(out) == ["ack", "deal"] and out[1]["match"]["hand"] == 2
    _, steps = room.take_steps()
    again = Room.from_config(room.config(timer=None, public=False, created=0.0), steps)
    assert again.v == room.v and again.table.hand_number == 2


# --------------------------------------------------------------------------- humans gone


def play_until_hand_over(harness: Harness, clock: FakeClock, clients: dict[Seat, Client]) -> None:
    """Play the hand in play to its end: the connected humans of ``clients`` answer with
    their first legal action, the bots and stand-ins when their deadline comes."""
    room = harness.room
    while room.table.waiting().kind is not WaitKind.NEXT:
        to_act = room.table.waiting()
        if room.waiting_for_bot():
            harness.bots()
        elif to_act.seat in clients and room.seating.connected(to_act.seat):
            harness.play_first_legal(clients[to_act.seat])
        else:
            due = room.deadline()
            assert due is not None and due.kind is DeadlineKind.STAND_IN and due.seat is not None
            clock.now = max(clock.now, due.at)
            harness.deliver(room.time_out(due.seat))


def test_a_table_whose_humans_all_left_finishes_its_hand_then_pauses_until_one_is_back() -> None:
    harness, clients, clock = human_to_act(humans=(Seat.S, Seat.N))
    room = harness.room
    spectator = harness.connect(None)
    for client in clients.values():
        harness.deliver(room.disconnect(client.connection))
    play_until_hand_over(harness, clock, {})
    over = spectator.numbered[-1]
    assert over["type"] == "hand-over" and over["deadline"] is None
    clock.now += 3600  # nobody is here: no hand is dealt, however long the table waits
    assert room.deadline() is None and not room.waiting_for_bot()
    assert room.table.hand_number == 1 and room.table.waiting().kind is WaitKind.NEXT
    back = harness.connect(room.tokens[Seat.N])
    snapshot = back.messages[0]
    assert snapshot["match"]["hand"] == 1  # coming back deals nothing by itself
    assert snapshot["deadline"] == deadline("next", None, clock.now - T + 30)  # a fresh wait
    clock.now += 30
    dealt = harness.deliver(room.deal())
    assert dealt[0]["type"] == "deal" and dealt[0]["match"]["hand"] == 2


def test_the_record_marks_each_decision_a_stand_in_made_for_a_human_and_no_bots() -> None:
    """South is away from the start: every decision of South is its stand-in's, North's are
    North's own, West's and East's their bots'; the record says so, also after a restart."""
    harness, clients, clock = human_to_act(humans=(Seat.S, Seat.N))
    room = harness.room
    harness.deliver(room.disconnect(clients[Seat.S].connection))
    north = {Seat.N: clients[Seat.N]}
    play_until_hand_over(harness, clock, north)
    harness.send(clients[Seat.N], {"type": "next", "id": "n1"})  # South's stand-in is ready
    assert room.table.hand_number == 2
    for _ in range(12):  # part of the second hand
        to_act = room.table.waiting()
        if to_act.seat is Seat.N:
            harness.play_first_legal(clients[Seat.N])
        elif to_act.seat is Seat.S:
            harness.deliver(room.time_out(Seat.S))
        else:
            harness.deliver(room.step_bot())
    record = room.table.record()
    expected = [
        [n for n, action in enumerate(hand.actions, 1) if action.startswith("S ")]
        for hand in record.hands
    ]
    assert all(expected)
    assert [hand.metadata["x_stand_in"] for hand in record.hands] == expected
    _, steps = room.take_steps()
    again = Room.from_config(room.config(timer=None, public=False, created=0.0), steps)
    assert again.table.record().hands == record.hands
    assert loads(dumps(record)).hands == record.hands


def test_a_table_of_bots_alone_writes_no_stand_in_decisions() -> None:
    room = Room.create({}, seed=3)
    while not room.table.match.is_over:
        room.step_bot()
    assert all(not hand.metadata for hand in room.table.record().hands)
