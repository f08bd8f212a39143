"""A table whose humans have all left, as the server runs it: the hand in play is finished by
their stand-ins, then the table pauses (no timer is set, so no hand is dealt for nobody) until
one comes back; and every record the server writes marks the decisions a stand-in made for a
human (each hand's ``x_stand_in``), so that no one is credited with a bot's play."""

from __future__ import annotations

from typing import Any

from conftest import Server
from helpers import wait_for
from test_server import Seen, create

from baloot.records.record import loads
from baloot.table import WaitKind


def test_a_table_whose_humans_all_left_pauses_after_the_hand_until_one_comes_back(
    server: Server,
) -> None:
    client, hall = server.client, server.hall
    assert client is not None and hall is not None
    created = create(client, seats={"S": "human", "N": "human"})
    table = created["table"]
    tokens = {seat: created["seats"][seat]["token"] for seat in ("S", "N")}
    for token in tokens.values():  # each human comes, then leaves mid-hand
        with client.websocket_connect(f"/ws/tables/{table}?token={token}") as socket:
            assert Seen(socket).receive()["type"] == "snapshot"
    with client.websocket_connect(f"/ws/tables/{table}") as watching:
        watcher = Seen(watching)
        over = watcher.receive()  # a snapshot taken after the hand-over, or the hand-over
        if not over["match"]["awaiting_next"]:
            over = watcher.until(lambda m: m["type"] == "hand-over")
        live = hall.tables[table]
        # Told after the table's timer was set for what follows: none is, nothing will happen.
        assert over["deadline"] is None and live.timer is None
        assert live.room.deadline() is None and live.room.table.hand_number == 1
        with client.websocket_connect(f"/ws/tables/{table}?token={tokens['N']}") as socket:
            north = Seen(socket)
            snapshot = north.receive()
            assert snapshot["match"]["hand"] == 1 and snapshot["deadline"]["kind"] == "next"
            dealt = north.until(lambda m: m["type"] == "deal")
            assert dealt["match"]["hand"] == 2


def test_the_record_the_server_keeps_marks_every_decision_a_stand_in_made(
    server: Server,
) -> None:
    """South never comes: all of South's decisions are its stand-in's, and the record the
    server keeps when it closes the table (its history download) says so, hand by hand, and
    marks no decision of the bots."""
    assert server.client is not None
    now = [1_000_000.0]
    server.options |= {"clock": lambda: now[0], "idle": 100.0}
    client = server.restart()
    hall = server.hall
    assert hall is not None
    table = create(client, names={"S": "Saad"})["table"]

    def paused() -> bool:
        live = hall.tables.get(table)
        return live is not None and live.room.table.waiting().kind is WaitKind.NEXT

    assert wait_for(paused)
    now[0] += 500
    client = server.restart()  # housekeeping closes the idle table, keeping its record
    assert wait_for(lambda: client.get(f"/api/tables/{table}").json()["status"] == "closed")
    record = loads(client.get(f"/api/matches/{table}/record").text)
    assert record.metadata["players"]["S"] == "Saad"
    (hand,) = record.hands
    south: list[Any] = [n for n, a in enumerate(hand.actions, 1) if a.startswith("S ")]
    assert south and hand.metadata == {"x_stand_in": south}
