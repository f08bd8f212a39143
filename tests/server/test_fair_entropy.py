"""Entropy always arrives after the commitment it is mixed with (``docs/table-protocol.md``, "Fair
deals"): a table request that carries entropy is refused; the first hand of a table with human
seats waits for each seat's ``entropy`` message (until its ``deal`` deadline, when it is dealt
with what came, and a proof with none says the server alone chose the deck); a rematch answers
with its first hand's commitment; and a hand dealt after the 30 s wait takes the entropy sent
after the hand-over that committed to it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest import Opener, Server
from helpers import WAIT, baloot
from spec_example import ACTIONS, record_text
from starlette.testclient import TestClient
from test_room import Client, Harness
from test_room_timers_talk import MS, FakeClock, T
from test_server import Seen, create, my_turn

from baloot.core.seats import Seat
from baloot.records.fair import Fair
from baloot.records.writer import dumps
from baloot.server import Room
from baloot.server.deadlines import Timing
from baloot.server.journal import Step, TableConfig
from baloot.server.seating import token_digest
from baloot.table import Player, WaitKind

REFUSED = '"entropy" is refused: each seat sends its own once it has seen the commitment'
SOUTH = "south-token-of-the-finished-match"


def waiting_server(server: Server) -> TestClient:
    """The server again, its tables' first hands waiting for their seats' entropy as long as a
    test may take: only an ``entropy`` message deals them."""
    server.options["deal_wait"] = WAIT
    return server.restart()


def entropy(hand: int, given: str, id_: str = "e1") -> dict[str, Any]:
    return {"type": "entropy", "id": id_, "hand": hand, "entropy": given}


def checked(reveal: dict[str, Any], deck: Any) -> Fair:
    """The revealed fair table of a ``hand-over``, checked against the hand's deck."""
    fair = Fair.from_json({k: v for k, v in reveal.items() if k != "hand"})
    fair.check(deck)
    return fair


def test_a_table_request_that_carries_entropy_is_refused_in_one_line(server: Server) -> None:
    client = server.client
    assert client is not None and server.hall is not None
    for given in ({"S": "9f" * 16}, {}, "9f"):
        refused = client.post("/api/tables", json={"seats": {"S": "human"}, "entropy": given})
        assert (refused.status_code, refused.json()) == (400, {"error": REFUSED})
    assert server.hall.tables == {}  # nothing was made


def test_the_first_hand_waits_for_the_entropy_message_and_is_dealt_from_it(
    server: Server,
) -> None:
    client = waiting_server(server)
    created = create(client)
    assert created["fair"] == {
        "hand": 1,
        "commitment": created["fair"]["commitment"],
        "entropy": {},
    }
    table, token = created["table"], created["seats"]["S"]["token"]
    with client.websocket_connect(f"/ws/tables/{table}?token={token}") as socket:
        south = Seen(socket)
        first = south.receive()
        assert first["type"] == "snapshot" and first["view"] is None  # no hand yet
        assert first["match"]["fair"] == created["fair"]
        assert first["deadline"]["kind"] == "deal" and first["deadline"]["seat"] is None
        assert 0 < first["deadline"]["at"] - first["now"] <= WAIT * 1000
        for bad, code in (
            (entropy(2, "ab" * 16, "e0"), "not_now"),  # no commitment for hand 2 yet
            (entropy(1, "AB", "e0"), "bad_message"),
            ({"type": "entropy", "id": "e0", "entropy": "ab"}, "bad_message"),
        ):
            south.send(bad)
            assert south.receive()["code"] == code
        south.send(entropy(1, "ab" * 16))
        assert south.receive() == {"type": "ack", "id": "e1"}
        dealt = south.receive()
        assert dealt["type"] == "deal" and dealt["view"]["seat"] == "S"
        assert dealt["match"]["fair"]["entropy"] == {"S": "ab" * 16}
        answered = lambda m: m["type"] in ("ack", "reject")  # noqa: E731 - the bots play on
        south.send(entropy(1, "cd" * 16))  # the same id: answered, nothing more
        assert south.until(answered) == {"type": "ack", "id": "e1"}
        south.send(entropy(1, "cd" * 16, "e2"))  # dealt already
        assert south.until(answered)["code"] == "not_now"
        over = first_hand_over(south)
    assert over["fair"]["commitment"] == created["fair"]["commitment"]
    assert over["fair"]["entropy"] == {"S": "ab" * 16}
    assert server.hall is not None
    checked(over["fair"], server.hall.tables[table].room.table.match.hands[0].deck)
    server.restart()  # the entropy was stored with its step
    fair = server.hall.tables[table].room.table.fair
    assert fair is not None and fair.fairs[1].entropy == {Seat.S: bytes.fromhex("ab" * 16)}


def first_hand_over(seen: Seen) -> dict[str, Any]:
    """The first hand's ``hand-over``: heard already (a bot may end a hand early: Kawesh),
    or once South has played its first legal action at each turn, the one it may have been
    told of already among them."""
    heard = [m for m in seen.messages if m["type"] == "hand-over"]
    if heard:
        return heard[0]
    last = next((m for m in reversed(seen.messages) if m.get("view") is not None), None)
    if last is not None and my_turn("S")(last):
        seen.act(last["view"]["legal"][0])
    return seen.play_to_hand_over()


def test_a_spectator_gives_no_entropy(server: Server) -> None:
    client = waiting_server(server)
    table = create(client)["table"]
    with client.websocket_connect(f"/ws/tables/{table}") as socket:
        watching = Seen(socket)
        assert watching.receive()["view"] is None
        watching.send(entropy(1, "ab" * 16))
        assert watching.receive()["code"] == "spectator"


def test_the_first_hand_is_dealt_without_entropy_after_its_deadline_and_says_so(
    server: Server, tmp_path: Path
) -> None:
    client = server.client  # the test server's first hands wait a third of a second
    assert client is not None and server.hall is not None
    created = create(client)
    table, token = created["table"], created["seats"]["S"]["token"]
    with client.websocket_connect(f"/ws/tables/{table}?token={token}") as socket:
        south = Seen(socket)
        south.until(lambda m: m.get("view") is not None)  # dealt by the deadline
        south.send(entropy(1, "ab" * 16))
        assert south.until(lambda m: m["type"] == "reject")["code"] == "not_now"
        over = first_hand_over(south)
    assert over["fair"]["entropy"] == {}  # the proof says no player's entropy went in
    room = server.hall.tables[table].room
    checked(over["fair"], room.table.match.hands[0].deck)
    path = tmp_path / "alone.baloot"
    path.write_text(dumps(room.table.record()), encoding="utf-8")
    verified = baloot("verify", str(path))
    assert verified.returncode == 0, verified.stdout + verified.stderr
    lines = verified.stdout.splitlines()
    assert lines[0].endswith(
        "deck = derived from the secret and no player's entropy: the server alone chose this deck ✓"
    )
    count = len(room.table.record().hands)
    assert lines[-1] == (
        f"{path}: ok: {count} of {count} deals verified; {count} of them chosen by the server "
        "alone (no player's entropy)"
    )


def test_a_rooms_first_hand_waits_until_its_deal_deadline_and_a_deal_then_takes_none() -> None:
    clock = FakeClock()
    room = Room.create({Seat.S: Player.human("Saad")}, timing=Timing(deal=15.0), clock=clock)
    harness = Harness(room)
    south = harness.connect(room.tokens[Seat.S])
    assert room.table.waiting().kind is WaitKind.DEAL and south.messages[0]["view"] is None
    assert south.messages[0]["deadline"] == {"kind": "deal", "seat": None, "at": MS + 15_000}
    clock.now = T + 15  # the deadline passed: the server deals with what came (nothing)
    assert [m["type"] for m in harness.deliver(room.deal())] == ["deal"]
    fair = room.table.fair
    assert fair is not None and fair.fairs[1].entropy == {}
    assert harness.leaks == []


def finished_match(opener: Opener, table: str) -> None:
    """A finished match kept in storage, South its one person."""
    players = {"N": "bot:heuristic", "E": "bot:heuristic", "S": "Saad", "W": "bot:random"}
    tokens = {"S": token_digest(SOUTH)}
    config = TableConfig(table, players, ("S",), "classic", 7, None, False, tokens, 1.7e9)
    store = opener()
    store.create(config)
    store.finish(table, record_text(ACTIONS), {"players": players, "winner": None}, when=1.7e9)


def test_a_rematchs_first_hand_is_dealt_from_the_entropy_sent_after_its_commitment(
    server: Server, opener: Opener
) -> None:
    client = waiting_server(server)
    finished_match(opener, "done9")
    made = client.post("/api/tables/done9/rematch", json={"token": SOUTH})
    assert made.status_code == 201
    again, fair = made.json()["table"], made.json()["fair"]
    assert fair == {"hand": 1, "commitment": fair["commitment"], "entropy": {}}
    asked_again = client.post("/api/tables/done9/rematch", json={"token": SOUTH})
    assert asked_again.json() == {"table": again, "fair": fair}
    with client.websocket_connect(f"/ws/tables/{again}?token={SOUTH}") as socket:
        south = Seen(socket)
        first = south.receive()
        assert first["view"] is None and first["match"]["fair"] == fair
        south.send(entropy(1, "5a" * 16))
        over = first_hand_over(south)
    assert over["fair"]["commitment"] == fair["commitment"]
    assert over["fair"]["entropy"] == {"S": "5a" * 16}
    assert server.hall is not None
    checked(over["fair"], server.hall.tables[again].room.table.match.hands[0].deck)


def test_a_hand_dealt_after_the_wait_for_next_takes_the_entropy_sent_after_the_hand_over() -> None:
    """Nobody presses Next: the hand is dealt when the wait is over (the server's 30 s), with
    the entropy each page sent as soon as the hand-over committed to it."""
    room = Room.create({Seat.S: Player.human("Saad"), Seat.N: Player.human("Nora")})
    harness = Harness(room)
    seats = {seat: harness.connect(room.tokens[seat]) for seat in (Seat.S, Seat.N)}
    for seat, client in seats.items():
        harness.send(client, entropy(1, f"1{int(seat)}" * 16))
    assert room.table.hand_number == 1  # dealt once both gave theirs
    play_to_hand_over(harness, seats)
    assert room.table.waiting().kind is WaitKind.NEXT
    for seat, client in seats.items():
        out = harness.send(client, entropy(2, f"2{int(seat)}" * 16, f"e2{seat.name}"))
        assert out == [{"type": "ack", "id": f"e2{seat.name}"}]
    assert room.table.awaiting_next == (Seat.N, Seat.S)  # nobody said Next
    assert [m["type"] for m in harness.deliver(room.deal())] == ["deal", "deal"]
    play_to_hand_over(harness, seats)
    over = seats[Seat.S].messages[-1]
    assert over["type"] == "hand-over" and over["fair"]["hand"] == 2
    assert over["fair"]["entropy"] == {"N": "20" * 16, "S": "22" * 16}
    checked(over["fair"], room.table.match.hands[1].deck)
    assert harness.leaks == []


def play_to_hand_over(harness: Harness, seats: dict[Seat, Client]) -> None:
    """Each human seat plays its first legal action until the hand is over."""
    table = harness.room.table
    for _ in range(500):
        harness.bots()
        waiting = table.waiting()
        if waiting.kind is not WaitKind.HUMAN:
            return
        assert waiting.seat is not None
        harness.play_first_legal(seats[waiting.seat])
    raise AssertionError("the hand did not end")


def test_entropy_given_and_refused_comes_back_with_the_table() -> None:
    """A restored table holds the entropy its steps gave, and refuses what it refused."""
    room = Room.create({Seat.S: Player.human("Saad"), Seat.N: Player.human("Nora")})
    config = room.config(timer=None, public=False, created=T)
    south = Harness(room).connect(room.tokens[Seat.S])
    room.receive(south.connection, json.dumps(entropy(1, "77")))
    _, steps = room.take_steps()
    back = Room.from_config(
        config, [Step.from_json(json.loads(json.dumps(s.to_json()))) for s in steps]
    )
    assert back.published_fair() == room.published_fair()
    assert back.published_fair() == {
        "hand": 1,
        "commitment": config_commitment(config),
        "entropy": {"S": "77"},
    }
    assert back.table.waiting().kind is WaitKind.DEAL  # North's is still awaited
    assert back.table.wants_entropy(Seat.N, 1) and not back.table.wants_entropy(Seat.S, 1)


def config_commitment(config: TableConfig) -> str:
    assert config.fair is not None and set(config.fair) == {"secret"}  # no entropy with it
    return Fair.of(bytes.fromhex(config.fair["secret"])).commitment
