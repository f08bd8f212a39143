"""Every message a :class:`Room` sends, byte for byte, against the transcripts kept in
``tests/data/room-transcripts/``: a guard that a change inside the room changes nothing on
the wire.

Each scene drives rooms directly (no sockets), seeded and on a fake clock: humans and bots,
whole hands, bids, doubling, plays, claims accepted and refused, talk, undo, hints, resync,
a spectator, a time-out, a stand-in, and bad input refused. Each outgoing message is written
as one JSON line: the call that caused it, its audience (seat and connection) and its exact
text as the transport sends it.

To write the transcripts again (only when the protocol itself is meant to change, and after
reading the difference)::

    BALOOT_WRITE_TRANSCRIPTS=1 PYTHONPATH=src python -m pytest tests/test_room_transcripts.py
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import pytest
from helpers import ROOT, build_deck
from test_room import ALL_SPADES, Passer

from baloot import Match, Rules, Seat
from baloot.bots.decisions import Decision
from baloot.core.rules import FirstLead
from baloot.server import Connection, Room, RoomError
from baloot.server.deadlines import Timing
from baloot.server.publishing import Outgoing
from baloot.table import Player, Table, WaitKind

KEPT = ROOT / "tests" / "data" / "room-transcripts"
WRITE = os.environ.get("BALOOT_WRITE_TRANSCRIPTS") == "1"
T = 1_764_600_000.0


def wire(message: Any) -> str:
    """A message's text as the transport sends it."""
    text = getattr(message, "text", None)
    return text if isinstance(text, str) else json.dumps(message, ensure_ascii=False)


class Clock:
    """A clock that moves only when the scene says."""

    def __init__(self) -> None:
        self.now = T

    def __call__(self) -> float:
        return self.now


class Scene:
    """A room, its connections and the transcript of everything it sent."""

    def __init__(self, room: Room, clock: Clock) -> None:
        self.room = room
        self.clock = clock
        self.lines: list[str] = []
        self.ids = 0

    def note(self, call: str, out: Sequence[Outgoing]) -> list[Outgoing]:
        for connection, message in out:
            who = "spectator" if connection.seat is None else connection.seat.name
            line = {"call": call, "to": f"{who}#{connection.number}", "text": wire(message)}
            self.lines.append(json.dumps(line, ensure_ascii=False))
        if not out:
            self.lines.append(json.dumps({"call": call, "to": None, "text": None}))
        return list(out)

    def connect(self, seat: Seat | None) -> Connection:
        token = None if seat is None else self.room.tokens[seat]
        connection, out = self.room.connect(token)
        self.note(f"connect {seat.name if seat else 'spectator'}", out)
        return connection

    def disconnect(self, connection: Connection) -> None:
        self.note("disconnect", self.room.disconnect(connection))

    def send(self, connection: Connection, message: dict[str, Any] | str) -> list[Outgoing]:
        text = message if isinstance(message, str) else json.dumps(message)
        return self.note(f"receive {text}", self.room.receive(connection, text))

    def act(self, connection: Connection, action: str) -> list[Outgoing]:
        self.ids += 1
        return self.send(connection, {"type": "act", "id": f"c{self.ids}", "action": action})

    def first_legal(self, connection: Connection) -> list[Outgoing]:
        assert connection.seat is not None
        return self.act(connection, str(self.room.table.view(connection.seat).legal[0]))

    def bots(self) -> None:
        while self.room.waiting_for_bot():
            self.clock.now += 1
            self.note("step_bot", self.room.step_bot())

    def call(self, name: str, do: Callable[[], list[Outgoing]]) -> None:
        self.note(name, do())


def seated(humans: Iterable[Seat], seed: int, **options: Any) -> Scene:
    clock = Clock()
    players = {seat: Player.human(f"P{seat.name}") for seat in humans}
    room = Room.create(players, seed=seed, room_id="t1", clock=clock, **options)
    return Scene(room, clock)


def human_turns(scene: Scene, connections: dict[Seat, Connection], limit: int) -> None:
    """The humans answer with their first legal action and the bots play, ``limit`` times."""
    table = scene.room.table
    for _ in range(limit):
        scene.bots()
        waiting = table.waiting()
        if waiting.kind is WaitKind.OVER:
            return
        scene.clock.now += 2
        if waiting.kind is WaitKind.NEXT:
            for seat in table.awaiting_next:
                scene.ids += 1
                scene.send(connections[seat], {"type": "next", "id": f"n{scene.ids}"})
        elif waiting.kind is WaitKind.HUMAN and waiting.seat in connections:
            scene.first_legal(connections[waiting.seat])
        else:
            return


# ---------------------------------------------------------------------------- the scenes


def one_human() -> list[str]:
    """One human and three bots over two hands: bad input, hints, undo, talk, resync, a
    spectator, a time-out, and a seat that drops and comes back."""
    scene = seated([Seat.S], seed=7, timing=Timing(turn=15.0, absent=30.0, next=30.0))
    watcher = scene.connect(None)
    south = scene.connect(Seat.S)
    scene.bots()
    first_v = scene.room.v
    scene.send(south, "not json")
    scene.send(south, "[1, 2]")
    scene.send(south, {"type": "dance", "id": "d1"})
    scene.send(south, {"type": "act", "id": "c0"})
    scene.send(south, {"type": "act", "id": "c0", "action": "S fly"})
    scene.send(south, {"type": "act", "id": "c0", "action": "N pass"})
    scene.send(watcher, {"type": "act", "id": "w1", "action": "S pass"})
    scene.send(watcher, {"type": "say", "id": "w2", "text": "hello"})
    scene.send(south, {"type": "ping"})
    scene.send(south, {"type": "hint", "id": "h1"})
    scene.send(south, {"type": "say", "id": "m1", "text": "salam"})
    scene.send(south, {"type": "say", "id": "m2", "text": "too soon"})
    scene.send(south, {"type": "say", "id": "m1", "text": "salam"})
    scene.send(south, {"type": "claim", "id": "s0"})
    scene.first_legal(south)
    scene.act(south, "S pass")
    scene.bots()
    scene.send(south, {"type": "undo", "id": "u1"})
    scene.send(south, {"type": "undo", "id": "u1"})
    scene.bots()
    scene.send(south, {"type": "resync", "since": first_v})
    human_turns(scene, {Seat.S: south}, 12)
    scene.send(south, {"type": "resync", "since": scene.room.v - 3})
    scene.send(watcher, {"type": "resync", "since": scene.room.v - 2})
    scene.send(south, {"type": "resync", "since": scene.room.v})
    scene.send(south, {"type": "resync", "since": 0})
    scene.clock.now += 15
    if scene.room.table.waiting().kind is WaitKind.HUMAN:
        scene.call("time_out S", lambda: scene.room.time_out(Seat.S))
    scene.call("time_out N", lambda: scene.room.time_out(Seat.N))
    scene.disconnect(south)
    scene.clock.now += 31
    scene.call("presence", scene.room.tell_presence)
    scene.bots()
    scene.call("time_out S away", lambda: scene.room.time_out(Seat.S))
    south = scene.connect(Seat.S)
    human_turns(scene, {Seat.S: south}, 80)
    scene.send(south, {"type": "hint", "id": "h2"})
    scene.disconnect(watcher)
    return scene.lines


def two_humans() -> list[str]:
    """Two humans: the wait for ``next`` dealt by its deadline, a dropped human's stand-in,
    and presence told once its interval is over."""
    scene = seated([Seat.S, Seat.N], seed=3, timing=Timing(absent=30.0, next=30.0))
    south = scene.connect(Seat.S)
    north = scene.connect(Seat.N)
    scene.send(north, {"type": "undo", "id": "u1"})
    scene.send(north, {"type": "hint", "id": "h1"})
    human_turns(scene, {Seat.S: south, Seat.N: north}, 45)
    scene.disconnect(north)
    scene.clock.now += 1
    scene.call("presence early", scene.room.tell_presence)
    scene.clock.now += 30
    scene.call("presence", scene.room.tell_presence)
    for _ in range(40):
        scene.bots()
        waiting = scene.room.table.waiting()
        scene.clock.now += 31
        if waiting.seat is Seat.N and waiting.kind is WaitKind.HUMAN:
            scene.call("time_out N", lambda: scene.room.time_out(Seat.N))
        elif waiting.kind is WaitKind.HUMAN:
            scene.first_legal(south)
        elif waiting.kind is WaitKind.NEXT:
            scene.call("deal", scene.room.deal)
            break
    north = scene.connect(Seat.N)
    human_turns(scene, {Seat.S: south, Seat.N: north}, 30)
    try:
        scene.room.connect("not a token")
    except RoomError as error:
        scene.lines.append(json.dumps({"call": "connect", "refused": error.close_code}))
    return scene.lines


def bots_away() -> list[str]:
    """A bot whose decisions are made elsewhere: tasks played as decided, a task no longer
    asked, and the stand-in deciding for a bot whose decision did not come back."""
    clock = Clock()
    players = {Seat.S: Player.human("Saad"), Seat.N: Player.bot("medium")}
    room = Room.create(players, seed=5, room_id="t2", clock=clock)
    scene = Scene(room, clock)
    south = scene.connect(Seat.S)
    for turn in range(40):
        waiting = room.table.waiting()
        clock.now += 1
        if waiting.kind is WaitKind.HUMAN:
            scene.first_legal(south)
            continue
        if waiting.kind is not WaitKind.BOT:
            break
        task = room.bot_task(seconds=5)
        if task is None:
            scene.note("step_bot", room.step_bot())
        elif turn % 3 == 0:
            assert waiting.seat is not None
            scene.note("stand_in_decides", room.stand_in_decides(waiting.seat))
            scene.lines.append(json.dumps({"call": "still_asks", "answer": room.still_asks(task)}))
        else:
            assert room.still_asks(task)
            decision = Decision(task.legal[-1], task.rng_state)
            scene.note("play_decided", room.play_decided(task, decision))
    scene.call("stand_in_decides S", lambda: room.stand_in_decides(Seat.S))
    return scene.lines


def claims() -> list[str]:
    """Sawa: a claim that does not hold is refused, one that holds plays the hand out."""
    lines: list[str] = []
    for south_cards, east_cards, exposed in (
        ("As Ks Qs Js Ts 9s 8s 7c", "Ac Kc Qc Jc Tc 9c 8c 7s", "8s"),
        (ALL_SPADES["S"], ALL_SPADES["E"], "7s"),
    ):
        hands = dict(ALL_SPADES, S=south_cards, E=east_cards)
        match = Match(Rules(first_lead=FirstLead.DECLARER), Seat.E)
        match.deal(build_deck(hands, taker="S", exposed=exposed))
        players = {seat: Player.bot("passer") for seat in Seat}
        players[Seat.S] = Player.human("Saad")
        clock = Clock()
        table = Table(match, players, {seat: Passer() for seat in Seat}, seed=1)
        scene = Scene(Room(table, "t3", clock=clock), clock)
        south = scene.connect(Seat.S)
        scene.connect(None)
        scene.bots()
        scene.act(south, "S sun")
        scene.bots()
        scene.send(south, {"type": "claim", "id": "s1"})
        scene.send(south, {"type": "claim", "id": "s1"})
        scene.send(south, {"type": "next", "id": "n1"})
        lines += scene.lines
    return lines


def doubling() -> list[str]:
    """Four humans bid, double and play by their first legal action, resync each other."""
    scene = seated(list(Seat), seed=21)
    connections = {seat: scene.connect(seat) for seat in Seat}
    table = scene.room.table
    for _ in range(60):
        waiting = table.waiting()
        if waiting.kind is not WaitKind.HUMAN or waiting.seat is None:
            break
        scene.clock.now += 1
        legal = table.view(waiting.seat).legal
        doubling = [a for a in legal if a.verb.value in ("double", "hokum", "sun")]
        scene.act(connections[waiting.seat], str((doubling or legal)[0]))
    scene.send(connections[Seat.E], {"type": "resync", "since": scene.room.v - 5})
    return scene.lines


def fair_deals() -> list[str]:
    """A table dealt fairly: entropy given, refused when not wanted, and the next hand's."""
    clock = Clock()
    draw = random.Random(99)
    room = Room.create(
        {Seat.S: Player.human("Saad")},
        room_id="t4",
        clock=clock,
        secret_bytes=draw.randbytes,
    )
    scene = Scene(room, clock)
    south = scene.connect(Seat.S)
    scene.send(south, {"type": "entropy", "id": "e1", "hand": 2, "entropy": "9f"})
    scene.send(south, {"type": "entropy", "id": "e2", "hand": 1, "entropy": "zz"})
    scene.send(south, {"type": "entropy", "id": "e3", "hand": 1, "entropy": "9f01"})
    scene.send(south, {"type": "entropy", "id": "e4", "hand": 1, "entropy": "9f01"})
    human_turns(scene, {Seat.S: south}, 30)
    scene.send(south, {"type": "next", "id": "n0", "entropy": "abcd"})
    return scene.lines


SCENES: dict[str, Callable[[], list[str]]] = {
    "one-human": one_human,
    "two-humans": two_humans,
    "bots-away": bots_away,
    "claims": claims,
    "doubling": doubling,
    "fair-deals": fair_deals,
}


@pytest.mark.parametrize("name", sorted(SCENES))
def test_a_room_sends_what_its_transcript_keeps_byte_for_byte(name: str) -> None:
    lines = SCENES[name]()
    kept = KEPT / f"{name}.jsonl"
    if WRITE:
        KEPT.mkdir(parents=True, exist_ok=True)
        kept.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    expected = kept.read_text(encoding="utf-8").splitlines()
    for number, (line, was) in enumerate(zip(lines, expected, strict=False), 1):
        assert line == was, f"{kept.name} line {number} differs"
    assert len(lines) == len(expected), f"{kept.name}: {len(lines)} lines, {len(expected)} kept"
