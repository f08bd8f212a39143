"""Properties of the table protocol under any mix of client messages (Hypothesis).

Two human seats, a spectator and a second connection of one seat send whatever Hypothesis
draws — legal and illegal actions, stale and repeated ids, other seats' actions, undo, hint,
claim, next, resync, ping, broken JSON — while the bots answer at once and the room's clock
deals and plays for late humans.
Whatever happens: no exception escapes the room, every message with an id gets exactly one
``ack`` or ``reject`` (the ``hint`` answer for a hint), a ``reject`` changes nothing, numbered
messages reach each connection in ``v`` order without a gap (one sent again for a ``resync``
is unchanged), no message to a connection holds a card its seat may not know,
and the journal's steps make the same table again.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from test_room import Harness

from baloot import Seat
from baloot.records.record import Record
from baloot.server import Room
from baloot.table import Player

SEATS = ("S", "N")
KINDS: tuple[str, ...] = ("legal", "legal", "legal", "illegal", "other_seat", "repeat", "next")
KINDS += ("undo", "hint", "claim", "resync", "ping", "garbage", "deal", "time_out", "drop")

step = st.tuples(
    st.sampled_from(KINDS),
    st.sampled_from(("S", "N", "S2", "spectator")),
    st.integers(min_value=0, max_value=50),
)


def answers(out: list[dict[str, Any]], id_: str) -> list[dict[str, Any]]:
    return [m for m in out if m["type"] in ("ack", "reject", "hint") and m.get("id") == id_]


@settings(deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=10_000), steps=st.lists(step, min_size=20, max_size=150)
)
def test_any_mix_of_client_messages_keeps_the_protocols_promises(
    seed: int, steps: list[tuple[str, str, int]]
) -> None:
    room = Room.create({Seat.S: Player.human("S"), Seat.N: Player.human("N")}, seed=seed)
    harness = Harness(room)
    clients = {
        "S": harness.connect(room.tokens[Seat.S]),
        "N": harness.connect(room.tokens[Seat.N]),
        "S2": harness.connect(room.tokens[Seat.S]),
        "spectator": harness.connect(None),
    }
    journal = room.take_steps()[1]
    used: list[str] = []
    acked = 0
    for kind, who, pick in steps:
        client = clients[who]
        seat = client.connection.seat
        view = room.table.view(seat)
        before = Record.of(room.table.match)
        id_ = f"{kind}-{len(used)}"
        message: dict[str, Any] | str
        if kind == "legal" and view.legal:
            message = {"type": "act", "id": id_, "action": str(view.legal[pick % len(view.legal)])}
        elif kind in ("legal", "illegal") and seat is not None and view.cards:
            # one of its own cards, most often out of turn or against the rules
            card = sorted(view.cards, key=str)[pick % len(view.cards)]
            message = {"type": "act", "id": id_, "action": f"{seat.name} play {card}"}
        elif kind in ("legal", "illegal"):
            message = {"type": "act", "id": id_, "action": "S double"}
        elif kind == "other_seat":
            message = {"type": "act", "id": id_, "action": "E pass"}
        elif kind == "repeat" and used:
            id_ = used[pick % len(used)]
            message = {"type": "act", "id": id_, "action": "S pass"}
        elif kind in ("next", "undo", "hint", "claim"):
            message = {"type": kind, "id": id_}
        elif kind == "resync":
            message = {"type": "resync", "since": max(0, room.v - pick)}
        elif kind == "ping":
            message = {"type": "ping"}
        elif kind == "garbage":
            message = '{"type": "act", "id": "x"' if pick % 2 else json.dumps([pick])
        else:
            if kind == "deal":
                harness.deliver(room.deal())
            elif kind == "time_out":
                harness.deliver(room.time_out(Seat[SEATS[pick % 2]]))
            elif kind == "drop":
                harness.deliver(room.disconnect(client.connection))
                token = None if seat is None else room.tokens[seat]
                clients[who] = harness.connect(token)
            harness.bots()
            journal += room.take_steps()[1]
            continue
        out = harness.send(client, message)
        if isinstance(message, dict) and "id" in message:
            answered = answers(out, id_)
            assert len(answered) == 1, (message, out)
            if answered[0]["type"] == "reject":
                assert Record.of(room.table.match) == before
            elif message["type"] == "act" and id_ not in used:
                used.append(id_)
                acked += 1
        harness.bots()  # the bots answer at once, as a server lets them
        journal += room.take_steps()[1]
    assert harness.leaks == []  # every message checked as delivered, against that moment
    assert acked <= len(journal)
    for client in clients.values():
        last, kept = 0, dict[int, dict[str, Any]]()
        for message in client.messages:
            if "v" not in message:
                continue
            if message["type"] == "snapshot":  # all this connection may see, as of its v
                last = max(last, message["v"])
            elif message["v"] <= last:  # sent again for a resync: unchanged if it had it
                assert message == kept.get(message["v"], message)
            else:  # live: the very next one, no gap
                assert message["v"] == last + 1, (last, message["type"], message["v"])
                last, kept[message["v"]] = message["v"], message
    again = Room.from_config(room.config(timer=None, public=False, created=0.0), journal)
    assert Record.of(again.table.match) == Record.of(room.table.match)
    assert again.v == room.v
