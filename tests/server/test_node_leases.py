"""A node's lost or lapsed lease on a table: the hall's side, in process on both backends (a
table whose lease another node took is let go at once, its sockets sent there, and so is one
whose lease runs out while the database is away), then the fence: a node paused past its
lease (in process, and SIGSTOP on a ``baloot serve`` process) acknowledges nothing once
another node holds its table.
"""

from __future__ import annotations

import json
import signal
import socket
import time
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from conftest import Server
from helpers import wait_for
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from test_nodes import (
    Player,
    create,
    database,  # noqa: F401 - a fixture
    holder,
    join,
    rows,
    start_node,
    stop_node,
)
from test_server import Seen
from test_server_faults import to_decide
from websockets.exceptions import ConnectionClosed

from baloot.server.leases import LEASE_SECONDS
from baloot.server.live import CLOSE_ELSEWHERE, CLOSE_TRY_AGAIN
from baloot.server.storage import StorageError

# --------------------------------------------------------------------------- in process


def renew_now(server: Server) -> None:
    """Run the hall's renewal now, in its event loop, rather than wait for its clock."""
    assert server.client is not None and server.client.portal is not None
    hall = server.hall
    assert hall is not None
    server.client.portal.call(hall.nodes.renew)


def south_table(client: TestClient) -> tuple[str, str]:
    """A new table with a human South: its id and South's token."""
    created = client.post("/api/tables", json={"seats": {"S": "human"}}).json()
    return created["table"], created["seats"]["S"]["token"]


def test_a_table_another_node_took_is_let_go_and_its_sockets_sent_there(
    server: Server,
) -> None:
    client, hall = server.client, server.hall
    assert client is not None and hall is not None
    table_id, token = south_table(client)
    with client.websocket_connect(f"/ws/tables/{table_id}?token={token}") as socket:
        assert socket.receive_json()["type"] == "snapshot"
        other = hall.store
        other.register_node("elsewhere", "https://elsewhere.example", now=time.time())
        with other._transaction() as run:  # its lease ran out, and the other node took it
            run(
                "UPDATE leases SET node = 'elsewhere', expires = ? WHERE table_id = ?",
                (time.time() + 3600, table_id),
            )
        renew_now(server)
        assert table_id not in hall.tables
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                socket.receive_json()
        assert closed.value.code == CLOSE_ELSEWHERE
        assert closed.value.reason == "https://elsewhere.example"
    with client.websocket_connect(f"/ws/tables/{table_id}?token={token}") as socket:
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert (closed.value.code, closed.value.reason) == (
            CLOSE_ELSEWHERE,
            "https://elsewhere.example",
        )
    moved = client.get(f"/t/{table_id}?token={token}", follow_redirects=False)
    assert moved.status_code == 307
    assert moved.headers["location"] == f"https://elsewhere.example/t/{table_id}?token={token}"
    assert client.get(f"/api/tables/{table_id}").json()["humans"] == ["S"]


def test_a_table_whose_lease_runs_out_while_storage_is_away_is_let_go(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    client, hall = server.client, server.hall
    assert client is not None and hall is not None
    table_id, token = south_table(client)
    with client.websocket_connect(f"/ws/tables/{table_id}?token={token}") as socket:
        assert socket.receive_json()["type"] == "snapshot"

        def away(*_: Any) -> set[str]:
            raise StorageError("the database is away")

        monkeypatch.setattr(hall.store, "renew_leases", away)
        hall.tables[table_id].lease_until = time.time() + 3600
        renew_now(server)  # the lease still runs for a while: the table is served
        assert table_id in hall.tables
        hall.tables[table_id].lease_until = time.time()  # as after a few failed renewals
        renew_now(server)
        assert table_id not in hall.tables
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                socket.receive_json()
        assert closed.value.code == CLOSE_TRY_AGAIN
    monkeypatch.undo()
    with client.websocket_connect(f"/ws/tables/{table_id}?token={token}") as socket:
        assert socket.receive_json()["type"] == "snapshot"  # restored: this node holds it


def test_a_node_alone_serves_every_table_under_its_host_name(server: Server) -> None:
    client, hall = server.client, server.hall
    assert client is not None and hall is not None
    made = [client.post("/api/tables", json={"seats": {"S": "human"}}).json() for _ in range(3)]
    renew_now(server)
    assert {table["table"] for table in made} <= set(hall.tables)
    for table in made:
        found = hall.store.holder(table["table"], now=time.time())
        assert found is not None and found.name == hall.node == socket.gethostname()


# --------------------------------------------------------------------------- the fence


def test_a_paused_node_whose_table_was_taken_acknowledges_nothing_and_sends_its_sockets_on(
    server: Server,
) -> None:
    """The node stops renewing (paused), its lease runs out and another node takes the
    table; an action the node then receives is refused by the database (its lease's epoch
    is gone), never acknowledged nor kept, and its sockets are sent to the new holder."""
    client, hall = server.client, server.hall
    assert client is not None and client.portal is not None and hall is not None
    table_id, token = south_table(client)
    with client.websocket_connect(f"/ws/tables/{table_id}?token={token}") as socket:
        seen = Seen(socket)
        turn = seen.until(to_decide("S"))
        leasing = hall.nodes.leasing
        assert leasing is not None
        client.portal.call(leasing.cancel)  # paused: no more renewals
        other = server.open()
        other.register_node("b", "https://b.example", now=time.time())
        with other._transaction() as run:  # its lease ran out
            run("UPDATE leases SET expires = ? WHERE table_id = ?", (time.time() - 1, table_id))
        assert other.take_lease(table_id, "b", time.time(), LEASE_SECONDS).taken
        seen.send({"type": "act", "id": "late", "action": turn["view"]["legal"][0]})
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                assert seen.receive().get("id") != "late", "acknowledged without the lease"
        assert (closed.value.code, closed.value.reason) == (CLOSE_ELSEWHERE, "https://b.example")
    assert table_id not in hall.tables
    kept = other.kept(table_id)
    assert kept is not None and "late" not in {step.id for step in kept.steps_read()}


def taken_by(url: str, table_id: str, name: str) -> bool:
    return holder(url, table_id) == name


def pass_turns(player: Player) -> None:
    """Read until it is the seat's turn to decide (saying ``next`` at a hand's end)."""
    while not player.my_turn():
        if player.last.get("type") == "hand-over":
            player.send({"type": "next", "id": player.new_id("n")})
            player.last = {}
        player.receive()


def test_a_node_paused_past_its_lease_acknowledges_nothing_once_another_holds_its_table(
    database: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    """SIGSTOP the node that serves a table, past its lease: the other node takes the table.
    An action sent to the paused node meanwhile is never acknowledged by it once it resumes
    (SIGCONT): the database refuses its write, and its socket is sent to the new holder,
    where the same action is acknowledged, once. Two rounds, the nodes taking turns (each is
    paused once, and each takes the table, a taking back what it lost); the journal then holds
    every acknowledged action exactly once."""
    a = start_node("a", database, tmp_path)
    nodes = [a]
    try:
        created = create(a)  # alone, a serves it
        table_id, token = created["table"], created["seats"]["S"]["token"]
        nodes.append(start_node("b", database, tmp_path))
        acked: dict[str, str] = {}
        for _ in range(2):
            player, paused = join(nodes, table_id, token)
            player.play(1)
            acked.update(player.acked)
            pass_turns(player)
            other = next(node for node in nodes if node is not paused)
            paused.process.send_signal(signal.SIGSTOP)
            try:
                assert wait_for(partial(taken_by, database, table_id, other.name))
                action, id_ = player.last["view"]["legal"][0], player.new_id("p")
                player.send({"type": "act", "id": id_, "action": action})
            finally:
                paused.process.send_signal(signal.SIGCONT)
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    message = player.receive()
                    assert message.get("id") != id_, f"{paused.name} answered {message}"
            assert closed.value.rcvd is not None
            # Sent on to the holder; or, had the pause caught a write under way, whose
            # session the database ended, told to try again.
            code, reason = closed.value.rcvd.code, closed.value.rcvd.reason
            assert (code, reason) == (CLOSE_ELSEWHERE, other.url) or code == CLOSE_TRY_AGAIN
            again, served_by = join(nodes, table_id, token)
            assert served_by is other
            again.send({"type": "act", "id": id_, "action": action})
            again.await_answer(id_)
            acked[id_] = action
            again.ws.close()
    finally:
        for node in nodes:
            node.process.send_signal(signal.SIGCONT)
            stop_node(node)
    by_id: dict[str, list[list[str]]] = {}
    for (body,) in rows(database, "SELECT body FROM steps WHERE table_id = %s", table_id):
        step = json.loads(body)
        if step["kind"] == "act":
            by_id.setdefault(step["id"], []).append(step["actions"])
    assert {id_: by_id.get(id_) for id_ in acked} == {
        id_: [[action]] for id_, action in acked.items()
    }
    for node in nodes:
        assert "Traceback" not in node.log.read_text(errors="replace"), node.log.read_text()
