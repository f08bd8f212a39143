"""The server under faults and hostile input: one live copy of a table, rows that cannot be
read, text that cannot be stored or sent, storage that fails, connections that race.

Each test here names what the server guarantees; the storage tests run on SQLite and on
PostgreSQL.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Final
from urllib.parse import quote

import pytest
from conftest import FAST, Opener, Server
from helpers import WAIT, free_port, wait_for
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect
from test_external_bots import assert_ended, write_bot
from test_serve_command import BALOOT, Serving
from test_server import Seen, create, my_turn
from test_storage import cut_off
from websockets.sync.client import connect as ws_connect

from baloot.core.seats import Seat
from baloot.server import connections
from baloot.server.hall import Hall
from baloot.server.live import CLOSE_TRY_AGAIN, CLOSE_UNRESTORABLE
from baloot.server.node_duties import STORAGE_AWAY
from baloot.server.outgoing import Sent
from baloot.server.room import Room
from baloot.server.seating import RoomError
from baloot.server.storage import StorageAway, StorageError, Store, open_store


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


def slowed(store: Store, name: str, seconds: float) -> None:
    """Make ``store.name`` take ``seconds`` longer, so that connections arrive meanwhile."""
    call = getattr(store, name)

    def slow(*args: Any, **kwargs: Any) -> Any:
        time.sleep(seconds)
        return call(*args, **kwargs)

    setattr(store, name, slow)


def to_decide(seat: str) -> Any:
    """A message whose view asks ``seat`` for a decision (not a hand's end; no view before
    the first deal)."""
    return lambda m: (m.get("view") or {}).get("to_act") == seat and bool(m["view"]["legal"])


def fault(server: Server, table_id: str) -> None:
    """Make the table fail, as the hall does: in its event loop, holding the table's lock."""
    assert server.client is not None and server.hall is not None
    hall = server.hall

    async def failing() -> None:
        live = hall.tables[table_id]
        async with live.lock:
            hall.fault(live, StorageError("disk full"))

    assert server.client.portal is not None
    server.client.portal.call(failing)


# --------------------------------------------------------------------------- one live copy


def test_connections_during_a_restore_wait_for_one_and_the_same_copy_of_the_table(
    opener: Opener, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failed table is restored once, however many connections arrive while it is: each
    gets the same copy (several copies would each play bots and write steps)."""
    made: list[Room] = []
    from_config = Room.from_config

    def counted(*args: Any, **kwargs: Any) -> Room:
        made.append(from_config(*args, **kwargs))
        return made[-1]

    async def main() -> None:
        hall = Hall(opener(), **FAST)
        await hall.start()
        try:
            created = await hall.create({"seats": {"S": "human", "N": "human"}})
            table_id = created.id
            live = hall.tables[table_id]
            async with live.lock:
                hall.fault(live, StorageError("disk full"))
            assert table_id not in hall.tables
            monkeypatch.setattr(Room, "from_config", counted)
            slowed(hall.store, "kept", 0.2)
            tokens = [created.tokens[seat] for seat in (Seat.S, Seat.N, Seat.S, Seat.N)]
            joined = await asyncio.gather(*(hall.connect(table_id, t) for t in [*tokens, None]))
            copies = {id(found[0]) for found in joined if found is not None}
            assert len(made) == 1 and len(copies) == 1 and None not in joined
            assert {id(hall.tables[table_id])} == copies
        finally:
            await hall.stop()

    run(main())


def test_a_failed_copy_of_a_table_never_writes_after_its_successor(
    opener: Opener,
) -> None:
    """Steps that do not follow the kept ones are refused by storage: a copy that fell
    behind fails loudly (and is dropped) instead of writing its steps into the journal."""

    async def main() -> None:
        # The seat's leaving is a step at once, and neither the first deal nor a stand-in for
        # the absent seats comes while the test runs, however slow the machine.
        waits = {"absent_wait": 10 * WAIT, "deal_wait": 10 * WAIT}
        hall = Hall(opener(), **{**FAST, **waits}, presence_every=0.0)
        await hall.start()
        try:
            humans = {seat: "human" for seat in "NESW"}  # no bot moves meanwhile
            created = await hall.create({"seats": humans})
            table_id, token = created.id, created.tokens[Seat.S]
            joined = await hall.connect(table_id, token)
            assert joined is not None
            live, connection, _ = joined
            kept = await hall._store(hall.store.kept, table_id)
            assert kept is not None
            config, steps = kept.read()
            stale = Room.from_config(config, steps[:-1])  # a copy one step behind
            stale.connect(token)
            first, more = stale.take_steps()
            with pytest.raises(StorageError, match="another copy of the table is writing"):
                await hall.commits.append(table_id, first, more, live.fence)
            assert hall.tables[table_id] is live  # the live copy is untouched
            await hall.disconnect(live, connection)
            again = await hall._store(hall.store.kept, table_id)
            assert again is not None and len(again.steps) == len(steps) + 1
        finally:
            await hall.stop()

    run(main())


# --------------------------------------------------------------------------- the database away

#: How soon a table plays on once its database is back (the issue's promise: 10 s).
RESUMES_WITHIN: Final = 10.0


@pytest.mark.parametrize("opener", ["postgresql"], indirect=True)
def test_a_table_of_bots_plays_on_once_its_lost_database_connection_is_back(
    opener: Opener, postgres_url: str
) -> None:
    """PostgreSQL ends the node's connection (as a restart does) while a table of bots plays:
    the call under way fails (a step's: the table is let go, nothing half-applied, and read
    back by the next renewal), the connection is opened again, and the bots play on, with
    nobody connected and the node never restarted."""
    journal = opener()

    def kept_steps(table_id: str) -> int:
        kept = journal.kept(table_id)
        assert kept is not None, "the table is over or closed"
        return len(kept.steps)

    async def until(condition: Callable[[], bool], seconds: float = WAIT) -> bool:
        deadline = time.monotonic() + seconds
        while not condition():
            if time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.05)
        return True

    async def main() -> None:
        hall = Hall(opener(), **{**FAST, "bot_pause": 0.05})
        await hall.start()
        try:
            table_id = (await hall.create({"seats": {}})).id
            assert await until(lambda: kept_steps(table_id) >= 3)
            cut_off(hall.store, postgres_url)
            cut_at, back = kept_steps(table_id), time.monotonic()
            assert await until(lambda: kept_steps(table_id) >= cut_at + 3, RESUMES_WITHIN), (
                f"no play {time.monotonic() - back:.1f} s after the database was back"
            )
            assert hall.store.outages == 1
            kept = journal.kept(table_id)
            assert kept is not None
            vs = [step.v for step in kept.steps_read()]
            assert vs == sorted(set(vs))  # nothing twice, nothing out of order
        finally:
            await hall.stop()

    run(main())


def test_a_table_let_go_while_its_storage_was_away_is_read_back_with_nobody_connected(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A step that meets the database away lets the table go (its sockets closed 1013 with
    the reason, nothing of the step applied); once the database answers, the node's next
    renewal reads the table back from its journal, and its bots play on without waiting
    for anyone to connect."""
    client, hall = server.client, server.hall
    assert client is not None and hall is not None
    hall.bot_pause = 0.05
    table_id = create(client, seats={})["table"]
    journal = server.open()

    def kept_steps() -> int:
        kept = journal.kept(table_id)
        assert kept is not None, "the table is over or closed"
        return len(kept.steps)

    append, failed = hall.commits.append, list[object]()

    async def away_once(*args: Any) -> None:
        if not failed:
            failed.append(args)
            raise StorageAway("the database is away")
        await append(*args)

    with client.websocket_connect(f"/ws/tables/{table_id}") as spectator:
        assert spectator.receive_json()["type"] == "snapshot"
        monkeypatch.setattr(hall.commits, "append", away_once)
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                spectator.receive_json()
        assert (closed.value.code, closed.value.reason) == (CLOSE_TRY_AGAIN, STORAGE_AWAY)
    cut_at = kept_steps()
    assert wait_for(lambda: kept_steps() >= cut_at + 3)
    assert table_id in hall.tables and len(failed) == 1


# --------------------------------------------------------------------------- bad rows


def corrupt_step(store: Store, table_id: str, body: str) -> None:
    """A bad step after the table's last one."""
    with store._transaction() as sql:
        (last,) = sql("SELECT MAX(n) FROM steps WHERE table_id = ?", (table_id,))[0]
        following = 0 if last is None else last + 1
        sql("INSERT INTO steps (table_id, n, body) VALUES (?, ?, ?)", (table_id, following, body))


def corrupt_config(store: Store, table_id: str, config: str) -> None:
    with store._transaction() as sql:
        sql("UPDATE tables SET config = ? WHERE id = ?", (config, table_id))


def corrupt_field(store: Store, table_id: str, change: str) -> None:
    """The table's config with one field changed: ``change`` is ``field=JSON``."""
    name, value = change.split("=", 1)
    with store._transaction() as sql:
        (config,) = sql("SELECT config FROM tables WHERE id = ?", (table_id,))[0]
        data = json.loads(config)
        data[name] = json.loads(value)
        sql("UPDATE tables SET config = ? WHERE id = ?", (json.dumps(data), table_id))


BAD_ROWS = {
    "a step that is not JSON": (corrupt_step, "{not json"),
    "an unknown step kind": (corrupt_step, '{"kind": "jump", "v": 1, "actions": []}'),
    "an unknown seat": (corrupt_step, '{"kind": "seat", "v": 1, "seat": "Q"}'),
    "a step whose v does not follow": (corrupt_step, '{"kind": "seat", "v": 99, "seat": "S"}'),
    "a step that cannot be replayed": (
        corrupt_step,
        '{"kind": "act", "v": 1, "seat": "S", "id": "x", "actions": ["S play As"]}',
    ),
    "a config that is a list": (corrupt_config, "["),
    "an empty config": (corrupt_config, "{}"),
    "a timer of NaN seconds": (corrupt_field, "timer=NaN"),
    "a bot nobody knows": (
        corrupt_field,
        'players={"N": "bot:nonesuch", "E": "bot:heuristic", "S": "S", "W": "bot:heuristic"}',
    ),
    "rules that are no rules": (corrupt_field, 'rules={"no_such_flag": true}'),
}


@pytest.mark.parametrize("bad", BAD_ROWS, ids=list(BAD_ROWS))
def test_a_table_whose_rows_cannot_be_read_is_reported_and_the_others_are_served(
    server: Server, bad: str, caplog: pytest.LogCaptureFixture
) -> None:
    client = server.client
    assert client is not None and server.hall is not None
    broken, sound = create(client), create(client)
    corrupt, text = BAD_ROWS[bad]
    server.stop()
    corrupt(server.open(), broken["table"], text)
    with caplog.at_level(logging.ERROR, "baloot.server"):
        client = server.start()
    said = [r for r in caplog.records if broken["table"] in r.getMessage()]
    assert len(said) == 1 and "could not be restored" in said[0].getMessage()
    assert said[0].exc_info is None  # one line, no traceback
    described = client.get(f"/api/tables/{broken['table']}")
    assert described.status_code == 200 and described.json()["status"] == "unrestorable"
    with client.websocket_connect(f"/ws/tables/{broken['table']}") as socket:
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == CLOSE_UNRESTORABLE
    assert client.get(f"/api/tables/{sound['table']}").json()["status"] == "playing"
    token = sound["seats"]["S"]["token"]
    with client.websocket_connect(f"/ws/tables/{sound['table']}?token={token}") as socket:
        assert socket.receive_json()["type"] == "snapshot"


def test_a_database_that_sqlite_reports_malformed_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    with open_store(str(path)) as store:
        for number in range(60):  # enough rows to span several pages
            store.create(
                Room.create(room_id=f"t{number}").config(timer=None, public=False, created=1)
            )
    with sqlite3.connect(path) as lite:
        lite.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(path.read_bytes())
    data[4096 + 16 : 4096 * 3] = b"\xa5" * (4096 * 2 - 16)  # the b-tree pages after the first
    path.write_bytes(bytes(data))
    done = subprocess.run(
        [*BALOOT, "serve", "--port", str(free_port()), "--db", str(path)],
        capture_output=True,
        text=True,
        timeout=WAIT,
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and ("malformed" in lines[0] or "damaged" in lines[0]), done.stderr


# --------------------------------------------------------------------------- bad text

UNSTORABLE = ["\ud800", "c\udfff1", "a\x00b"]


@pytest.mark.parametrize("text", UNSTORABLE, ids=["surrogate", "low surrogate", "nul"])
@pytest.mark.parametrize("kind", ["act", "next", "undo", "claim"])
def test_an_id_that_cannot_be_stored_is_refused_before_anything_is_applied(
    shared_server: Server, kind: str, text: str
) -> None:
    client = shared_server.client
    assert client is not None and shared_server.hall is not None
    created = create(client)
    table, token = created["table"], created["seats"]["S"]["token"]
    live = shared_server.hall.tables[table]
    with client.websocket_connect(f"/ws/tables/{table}?token={token}") as socket:
        south = Seen(socket)
        view = south.until(to_decide("S"))["view"]
        message: dict[str, Any] = {"type": kind, "id": text}
        if kind == "act":
            message["action"] = view["legal"][0]
        south.send(message)
        answer = south.until(lambda m: m["type"] in ("ack", "reject", "event"))
        assert answer == {
            "type": "reject",
            "id": None,
            "code": "bad_message",
            "reason": answer["reason"],
        }
        assert "cannot be kept" in answer["reason"]
        south.send({"type": "ping"})
        south.until(lambda m: m["type"] == "pong")
        assert shared_server.hall.tables[table] is live  # the table did not fail
        assert live.room.table.view(Seat.S).to_json()["actions"] == view["actions"]
        south.act(view["legal"][0])
        assert south.until(lambda m: m["type"] in ("ack", "reject"))["type"] == "ack"


@pytest.fixture(scope="module")
def serving(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Serving]:
    """One ``baloot serve`` for the tests over a real socket, each at a table of its own."""
    started = Serving(tmp_path_factory.mktemp("serving"))
    yield started
    started.stop()


@pytest.mark.parametrize("text", ["S play \ud800", "S \ud800", "\ud800", "S play J\x00d"])
def test_a_reject_never_quotes_text_that_cannot_be_sent_and_the_connection_goes_on(
    serving: Serving, text: str
) -> None:
    """Over a real socket: a reply quoting a lone surrogate cannot be encoded as UTF-8."""
    created = serving.post("/api/tables", {"seats": {"S": "human"}})
    seats = created["seats"]
    assert isinstance(seats, dict)
    url = f"ws://127.0.0.1:{serving.port}/ws/tables/{created['table']}"
    with ws_connect(f"{url}?token={seats['S']['token']}") as socket:
        assert json.loads(socket.recv(timeout=WAIT))["type"] == "snapshot"
        socket.send(json.dumps({"type": "act", "id": "c1", "action": text}))
        socket.send(json.dumps({"type": "ping"}))
        answers: list[dict[str, Any]] = []
        while not answers or answers[-1]["type"] != "pong":
            answers.append(json.loads(socket.recv(timeout=WAIT)))
        (refused,) = [a for a in answers if a["type"] == "reject"]
        assert refused["id"] == "c1" and refused["code"] == "bad_message"


def test_a_connection_whose_message_cannot_be_sent_is_closed_and_its_seat_counts_as_gone(
    shared_server: Server,
) -> None:
    client = shared_server.client
    assert client is not None and shared_server.hall is not None
    created = create(client, seats={"S": "human", "N": "human"})
    table, token = created["table"], created["seats"]["S"]["token"]
    live = shared_server.hall.tables[table]
    with (
        client.websocket_connect(f"/ws/tables/{table}") as spectator,
        client.websocket_connect(f"/ws/tables/{table}?token={token}") as socket,
    ):
        watcher, south = Seen(spectator), Seen(socket)
        watcher.until(lambda m: m.get("seat") == "S" and m["connected"])
        south.receive()
        (outbox,) = [o for c, o in live.outboxes.items() if c.seat is Seat.S]
        outbox.put(Sent({"type": "pong", "said": "\udc00"}))
        with pytest.raises(WebSocketDisconnect) as closed:
            south.until(lambda m: False)
        assert closed.value.code == 1011
        gone = watcher.until(lambda m: m["type"] == "seat" and m["seat"] == "S")
        assert gone["connected"] is False
        assert not live.room.seating.connected(Seat.S)


# --------------------------------------------------------------------------- connections


def test_a_storage_failure_while_connecting_leaves_no_ghost_connection(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The seat of a connection that failed is not counted as connected for ever: the
    stand-in still plays for it once it is gone."""
    client = server.client
    assert client is not None and server.hall is not None
    created = create(client)
    table, token = created["table"], created["seats"]["S"]["token"]
    live = server.hall.tables[table]
    store = server.hall.store

    def full(*_: Any, **__: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(store, "seen", full)
    with (
        contextlib.suppress(Exception),
        client.websocket_connect(f"/ws/tables/{table}?token={token}") as socket,
    ):
        socket.receive_json()
    monkeypatch.undo()
    deadline = time.monotonic() + WAIT
    while live.outboxes and time.monotonic() < deadline:
        time.sleep(0.05)
    assert live.outboxes == {} and not live.room.seating.connected(Seat.S)
    with client.websocket_connect(f"/ws/tables/{table}") as spectator:
        watcher = Seen(spectator)
        assert watcher.receive()["seats"]["S"]["connected"] is False
        watcher.until(lambda m: m["type"] == "event" and m["action"].startswith("S "))


def test_the_connection_cap_holds_when_many_connect_at_once(
    opener: Opener, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(connections, "MAX_CONNECTIONS", 3)

    async def main() -> None:
        hall = Hall(opener(), **FAST)
        await hall.start()
        try:
            created = await hall.create({"seats": {"S": "human"}})
            table_id, token = created.id, created.tokens[Seat.S]
            slowed(hall.store, "seen", 0.02)
            tried = await asyncio.gather(
                *(hall.connect(table_id, token) for _ in range(12)), return_exceptions=True
            )
            refused = [t for t in tried if isinstance(t, RoomError)]
            assert len(tried) - len(refused) == 3
            assert {error.close_code for error in refused} == {1013}
            assert len(hall.tables[table_id].outboxes) == 3
        finally:
            await hall.stop()

    run(main())


def test_no_process_an_operators_bot_program_started_outlives_the_server(tmp_path: Path) -> None:
    """A bot program whose child starts a session of its own (``setsid``), which its process
    group no longer holds: the server's stop ends it all the same."""
    pids = tmp_path / "pids"
    program = write_bot(tmp_path, "setsid_child", pids)
    serving = Serving(tmp_path, "--bot", f"mine={program}", "--bot-pause", "0")
    try:
        serving.post("/api/tables", {"seats": {seat: "bot:mine" for seat in "NESW"}})
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline and (
            not pids.exists() or len(pids.read_text().split()) < 8
        ):
            time.sleep(0.1)
        assert len(pids.read_text().split()) >= 8  # four programs and their children
    finally:
        serving.stop()
    assert_ended(pids)


# --------------------------------------------------------------------------- the API

HUGE = "9" * 5000
BAD_REQUESTS = {
    "a lone surrogate in the rules": ("POST", "/api/tables", '{"rules": "\\ud800"}', 400),
    "a lone surrogate in a flag name": (
        "POST",
        "/api/tables",
        '{"rules": {"\\ud800": true}}',
        400,
    ),
    "a NUL in a name": (
        "POST",
        "/api/tables",
        '{"seats": {"S": "human"}, "names": {"S": "a\\u0000"}}',
        400,
    ),
    "a lone surrogate in the words": ("POST", "/api/words", '{"lang": "\\udc80"}', 400),
    "an offset of 2**63": ("GET", f"/api/matches?offset={2**63}", None, 400),
    "a negative offset": ("GET", "/api/matches?offset=-1", None, 400),
    "an offset of 5000 digits": ("GET", f"/api/matches?offset={HUGE}", None, 400),
    "a hand of 5000 digits": ("GET", f"/api/tables/t1/hands/{HUGE}/analysis", None, 404),
    "a sheet of hand 5000 digits": ("GET", f"/api/tables/t1/sheet?hand={HUGE}", None, 400),
    "a table id of a lone surrogate": ("GET", "/api/tables/%ED%A0%80", None, 404),
    "a table id with a NUL": ("GET", "/api/tables/a%00b", None, 404),
    "a record of a NUL id": ("GET", "/api/matches/a%00b/record", None, 404),
    "an analysis of a NUL id": ("GET", "/api/tables/a%00b/hands/1/analysis", None, 404),
    "no such route": ("GET", "/api/nothing", None, 404),
    "a method the route does not take": ("DELETE", "/api/tables", None, 405),
}


@pytest.mark.parametrize("case", BAD_REQUESTS, ids=list(BAD_REQUESTS))
def test_bad_input_to_the_api_is_a_4xx_with_a_json_error(shared_server: Server, case: str) -> None:
    client = shared_server.client
    assert client is not None
    method, path, body, status = BAD_REQUESTS[case]
    response = client.request(method, path, content=body)
    assert response.status_code == status
    assert isinstance(response.json()["error"], str)


def test_an_analysis_page_of_a_hand_beyond_any_match_is_a_404_page(shared_server: Server) -> None:
    client = shared_server.client
    assert client is not None
    response = client.get(f"/t/t1/hands/{HUGE}/analysis")
    assert response.status_code == 404 and "<html" in response.text


@pytest.mark.parametrize(
    ("method", "path", "name"),
    [
        ("POST", "/api/tables", "create"),
        ("GET", "/api/matches", "history"),
        ("GET", "/api/tables/t1", "table_config"),
        ("GET", "/api/matches/t1/record", "match_record"),
    ],
)
def test_a_storage_failure_is_a_json_503(
    server: Server, monkeypatch: pytest.MonkeyPatch, method: str, path: str, name: str
) -> None:
    client = server.client
    assert client is not None and server.hall is not None

    def full(*_: Any, **__: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(server.hall.store, name, full)
    response = client.request(method, path, json={"seats": {"S": "human"}})
    assert response.status_code == 503
    assert "storage" in response.json()["error"]


def test_a_storage_failure_while_restoring_a_table_closes_its_connections_1011(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = server.client
    assert client is not None and server.hall is not None
    table = create(client)["table"]
    fault(server, table)

    def lost(*_: Any, **__: Any) -> None:
        raise OSError("connection lost")

    monkeypatch.setattr(server.hall.store, "kept", lost)
    with client.websocket_connect(f"/ws/tables/{table}") as socket:
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == 1011
    monkeypatch.undo()
    with client.websocket_connect(f"/ws/tables/{table}") as socket:
        assert socket.receive_json()["type"] == "snapshot"


# --------------------------------------------------------------------------- any input at all

#: Text of every kind, lone surrogates and NUL included.
TEXT = st.text(st.characters(codec=None) | st.sampled_from(["\ud800", "\udfff", "\x00"]))
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=8,
)
#: JSON texts that no ``json.dumps`` makes: numbers beyond any bound, nesting beyond any depth.
RAW = st.sampled_from(
    [
        f'{{"type": "resync", "since": {HUGE}}}',
        f'{{"type": "act", "id": "r1", "action": "S pass", "x": {HUGE}}}',
        '{"type": "act", "id": "r2", "action": "S pass", "x": 1e999}',
        "[" * 5000,
        '{"type": "act", "id": ' + "[" * 3000 + "]" * 3000 + "}",
        '{"seats": {"S": "human"}, "timer": ' + HUGE + "}",
        '{"rules": {"hokum_dealer_ekka": ' + HUGE + "}}",
        "",
        "\ufeff{}",
    ]
)
BODIES = JSON.map(json.dumps) | RAW
MESSAGES = (
    st.fixed_dictionaries(
        {
            "type": st.sampled_from(["act", "resync", "next", "ping", "undo", "hint", "claim"])
            | TEXT
        },
        optional={
            "id": JSON | st.sampled_from(["c1", "x" * 64, "x" * 65]),
            "action": JSON | st.sampled_from(["S pass", "S sun", "S hokum", "E pass", "S play Jd"]),
            "since": JSON | st.integers(-3, 10**20),
        },
    ).map(json.dumps)
    | BODIES
)
PATH = TEXT.map(lambda text: quote(text.encode("utf-8", "surrogatepass"), safe=""))
ENDPOINTS = [
    ("GET", "/api/options"),
    ("POST", "/api/tables"),
    ("GET", "/api/tables"),
    ("GET", "/api/tables/{table}"),
    ("GET", "/api/tables/{table}/sheet?hand={query}&lang={query}"),
    ("GET", "/api/tables/{table}/hands/{query}/analysis"),
    ("GET", "/api/matches?offset={query}"),
    ("GET", "/api/matches/{table}/record"),
    ("POST", "/api/words"),
    ("GET", "/?lang={query}"),
    ("GET", "/history?lang={query}"),
    ("GET", "/t/{table}?token={query}"),
    ("GET", "/t/{table}/hands/{query}/analysis"),
]


def test_no_request_gets_a_5xx_and_no_message_ends_a_connection(server: Server) -> None:
    """Arbitrary JSON, numbers and text to every endpoint and every message type: every
    answer is below 500, every connection lives on, and the table never fails."""
    client = server.client
    assert client is not None and server.hall is not None
    created = create(client)
    table, token = created["table"], created["seats"]["S"]["token"]
    live = server.hall.tables[table]

    @settings(max_examples=60)
    @given(
        endpoint=st.sampled_from(ENDPOINTS),
        known=st.booleans(),
        table_text=PATH,
        query=PATH,
        body=BODIES,
    )
    def request(
        endpoint: tuple[str, str], known: bool, table_text: str, query: str, body: str
    ) -> None:
        method, template = endpoint
        path = template.format(table=table if known else table_text, query=query)
        response = client.request(method, path, content=body.encode("utf-8", "surrogatepass"))
        assert response.status_code < 500, (path, response.text)
        if path.startswith("/api/") and response.status_code >= 400:
            assert isinstance(response.json()["error"], str)

    request()
    with (
        client.websocket_connect(f"/ws/tables/{table}?token={token}") as seat,
        client.websocket_connect(f"/ws/tables/{table}") as spectator,
    ):

        @settings(max_examples=60)
        @given(message=MESSAGES, as_spectator=st.booleans())
        def message(message: str, as_spectator: bool) -> None:
            socket = spectator if as_spectator else seat
            socket.send_text(message)
            socket.send_text('{"type": "ping"}')
            Seen(socket).until(lambda m: m["type"] == "pong")

        message()
    assert server.hall.tables[table] is live


def test_a_hint_that_thinks_holds_up_no_other_table(server: Server) -> None:
    """The best bot's hint searches: it is answered away from the event loop, so another
    table's messages are answered meanwhile."""
    client = server.client
    assert client is not None and server.hall is not None
    thinking, other = create(client), create(client)
    room = server.hall.tables[thinking["table"]].room
    release, thought = threading.Event(), threading.Event()
    best = room.hint_bot

    class Thinking:
        def explain(self, view: Any, legal: Any) -> Any:
            release.wait(WAIT)
            thought.set()
            return best.explain(view, legal)

    room.hint_bot = Thinking()
    token, other_token = thinking["seats"]["S"]["token"], other["seats"]["S"]["token"]
    with (
        client.websocket_connect(f"/ws/tables/{thinking['table']}?token={token}") as asking,
        client.websocket_connect(f"/ws/tables/{other['table']}?token={other_token}") as waiting,
    ):
        south, elsewhere = Seen(asking), Seen(waiting)
        south.until(my_turn("S"))
        elsewhere.receive()
        south.send({"type": "hint", "id": "h1"})
        elsewhere.send({"type": "ping"})
        elsewhere.until(lambda m: m["type"] == "pong")
        assert not thought.is_set()  # the hint is still being thought about
        release.set()
        assert south.until(lambda m: m["type"] in ("hint", "reject"))["type"] == "hint"
