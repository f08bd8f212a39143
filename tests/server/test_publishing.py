"""What a room tells its connections (:class:`Publisher`): each message built and encoded
once per audience, the same text for every connection of that audience, kept for resync."""

from __future__ import annotations

import json

from baloot import Seat
from baloot.server.deadlines import Timing, Waits
from baloot.server.outgoing import Sent
from baloot.server.presence import Presence
from baloot.server.publishing import Publisher
from baloot.server.room_journal import RoomJournal, Secrets
from baloot.server.seating import Seating, seat_table
from baloot.server.talk import Talk
from baloot.table import Player


def publisher() -> Publisher:
    table = seat_table({Seat.S: Player.human("Saad")}, None, 7)
    seating = Seating(table)
    waits = Waits(table, seating, Timing(), lambda: 100.0, created=100.0)
    journal = RoomJournal(table, seating, Talk(), Secrets())
    return Publisher("t1", table, seating, waits, Presence(), Talk(), journal)


def test_a_message_is_encoded_once_for_every_connection_of_one_audience() -> None:
    told = publisher()
    watchers = [told.seating.join(None) for _ in range(3)]
    out = told.events(told.table.play_bot(None))
    assert [c for c, _ in out] == watchers
    assert len({id(message) for _, message in out}) == 1  # one object, one text
    (message,) = {id(m): m for _, m in out}.values()
    assert isinstance(message, Sent) and json.loads(message.text) == message


def test_each_audience_gets_its_own_version_of_a_numbered_message() -> None:
    told = publisher()
    south, watcher = told.seating.join(Seat.S), told.seating.join(None)
    out = dict(told.events(told.table.play_bot(None)))
    assert out[south]["v"] == out[watcher]["v"]
    assert out[south]["view"]["seat"] == "S" and out[watcher]["view"]["seat"] is None


def test_a_resync_tells_again_the_very_text_sent() -> None:
    told = publisher()
    watcher = told.seating.join(None)
    first = told.events(told.table.play_bot(None))
    again = told.resync(watcher, first[0][1]["v"] - 1)
    assert [m.text for _, m in again] == [m.text for _, m in first]


def test_a_resync_from_before_the_history_is_a_snapshot() -> None:
    told = publisher()
    watcher = told.seating.join(None)
    told.events(told.table.play_bot(None))
    (snapshot,) = told.resync(watcher, -5)
    assert snapshot[1]["type"] == "snapshot" and snapshot[1]["v"] == told.table.version


def test_a_seat_message_is_numbered_and_noted_as_a_step() -> None:
    told = publisher()
    watcher = told.seating.join(None)
    ((connection, message),) = told.seat(Seat.S, connected=False)
    assert connection is watcher and message["type"] == "seat" and not message["connected"]
    _, steps = told.journal.take_steps()
    assert [(step.kind.value, step.seat) for step in steps] == [("seat", Seat.S)]
