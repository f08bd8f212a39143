"""What a room tells its connections (:class:`Publisher`): the table's events as the
protocol's messages, each built once per audience and encoded once
(:class:`~baloot.server.messages.Sent`) for every connection of that audience.

Every numbered message (``event``, ``hand-over``, ``deal``, ``seat``, ``said``, and the
``snapshot`` that follows an undo) takes the ``v`` of the table's event it tells, the same for
every connection; each connection gets the version of it for its own seat (its own view, the
action as its seat heard it), so no message carries a card its seat may not know. The numbered
messages are kept, as sent, in the room's :class:`~baloot.server.history.History` for
``resync``.

>>> from baloot.server.seating import seat_table
>>> from baloot.server.deadlines import Timing, Waits
>>> from baloot.server.room_journal import Secrets
>>> table = seat_table({}, None, 7)
>>> seating = Seating(table)
>>> waits = Waits(table, seating, Timing(), lambda: 0.0, created=0.0)
>>> journal = RoomJournal(table, seating, Talk(), Secrets())
>>> publisher = Publisher("t1", table, seating, waits, Presence(), Talk(), journal)
>>> watcher = seating.join(None)
>>> (_, sent), = publisher.events(table.play_bot(None))
>>> sent["type"], sent["v"], sent["action"], publisher.resync(watcher, 0) == [(watcher, sent)]
('event', 1, 'E pass', True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import assert_never

from baloot.core.cards import CardSet
from baloot.core.claim import claim_order
from baloot.core.match import TARGET
from baloot.core.seats import Seat
from baloot.records.summary import hand_json, teams_json
from baloot.server.deadlines import Waits, millis
from baloot.server.history import HISTORY, History
from baloot.server.journal import StepKind
from baloot.server.messages import Message, MessageType
from baloot.server.outgoing import (
    SeatTold,
    Sent,
    Snapshot,
    event_message,
    table_view,
    view_message,
)
from baloot.server.presence import Presence
from baloot.server.room_journal import RoomJournal
from baloot.server.seating import Connection, Seating
from baloot.server.talk import Talk
from baloot.table.table import Event, EventKind, Table
from baloot.view.sheet import explain
from baloot.view.sheet import to_json as sheet_json

#: A message and the connection to send it to.
Outgoing = tuple[Connection, Sent]
#: A message in the version of each audience (a seat, or None for the spectators).
Build = Callable[[Seat | None], Message]


class Publisher:
    """The messages of one table to its connections, and the numbered ones kept for resync.

    ``room_id`` and ``record_url`` (the record's address, shown in ``MATCH`` once the match is
    over; a server sets it once it knows it) name the table in its ``MATCH`` object; ``waits``
    gives the deadline every message tells; ``presence`` notes each seat's state as told;
    ``talk`` is the table talk a snapshot holds; ``journal`` notes the ``seat`` steps it
    takes; ``history`` bounds the numbered messages kept.
    """

    def __init__(
        self,
        room_id: str,
        table: Table,
        seating: Seating,
        waits: Waits,
        presence: Presence,
        talk: Talk,
        journal: RoomJournal,
        history: int = HISTORY,
        record_url: str | None = None,
    ) -> None:
        self.room_id = room_id
        self.table = table
        self.seating = seating
        self.waits = waits
        self.presence = presence
        self.talk = talk
        self.journal = journal
        self.history: History[Sent] = History(history)
        self.record_url = record_url

    # ------------------------------------------------------------------ unnumbered

    def resync(self, connection: Connection, since: int) -> list[Outgoing]:
        """The numbered messages after ``since`` again, as they were sent to the connection's
        audience; a snapshot when the history cannot tell them all."""
        kept = self.history.since(since, latest=self.table.version, audience=connection.seat)
        if kept is None:
            return [(connection, self.snapshot(connection.seat))]
        return [(connection, message) for message in kept]

    def snapshot(self, audience: Seat | None) -> Sent:
        """All ``audience`` may see now, the table's deadline and clock, and the talk kept
        (no view before the first hand is dealt)."""
        table = self.table
        dealt = bool(table.match.hands)
        return Snapshot(
            v=table.version,
            view=table_view(table.view(audience), table.hand) if dealt else None,
            match=self.match_json(),
            seats=self.seats_json(),
            deadline=self.waits.deadline_json(),
            now=millis(self.waits.clock()),
            talk=self.talk.to_json(),
        ).sent()

    def match_json(self) -> Message:
        """The ``MATCH`` object of the protocol."""
        table = self.table
        match = table.match
        winner = match.winner
        return {
            "id": self.room_id,
            "hand": max(table.hand_number, 1),  # the first hand's number before it is dealt
            "totals": teams_json(match.totals),
            "hands": [hand_json(result) for result in match.results],
            "target": TARGET,
            "winner": None if winner is None else winner.name,
            "awaiting_next": [seat.name for seat in table.awaiting_next],
            "record": self.record_url if match.is_over else None,
            "fair": self.published_fair(),
        }

    def published_fair(self) -> Message | None:
        """The fair table published before the players speak (``docs/table-protocol.md``): the hand
        it is for, its commitment and the entropy given so far, never its secret; None at a
        table dealt from its seed, or once the match is over."""
        published = self.table.published_fair()
        if published is None:
            return None
        number, fair = published
        return fair.to_json(number, reveal=False)

    def seats_json(self) -> Message:
        """Each seat's player and whether it is connected now (a bot always is, unless its
        program fails): a seat's coming or leaving not yet told is in it already."""
        seating = self.seating
        return {
            seat.name: {"player": seating.label(seat), "connected": seating.connected(seat)}
            for seat in Seat
        }

    # ------------------------------------------------------------------ numbered

    def seat(self, seat: Seat, connected: bool) -> list[Outgoing]:
        """The numbered ``seat`` message, a step of its own: who plays ``seat`` now, and if it
        is connected."""
        (event,) = self.table.note_seat(seat)
        self.presence.told(seat, connected, self.waits.clock())
        label = self.seating.label(seat)
        told = SeatTold(event.v, seat, label, connected, self.waits.deadline_json()).fields()
        out = self.numbered(event.v, lambda _: told)
        self.journal.note(StepKind.SEAT, seat)
        return out

    def events(
        self,
        events: Sequence[Event],
        claimed: Mapping[Seat, CardSet] | None = None,
        *,
        timeout: bool = False,
    ) -> list[Outgoing]:
        """The messages of ``events``, numbered and kept, each with the table's deadline once
        they are applied; an action event's view is that of the hand just after it (its
        ``after`` when it holds one: an action of a claim, told once the hand is played out).
        ``claimed``: the claimant of an accepted claim and the cards it held, which the
        ``hand-over`` shows face up (Sawa), once every card is played. ``timeout`` marks the
        actions as decided for a human whose time ran out."""
        out: list[Outgoing] = []
        table = self.table
        timed: Message = {"deadline": self.waits.deadline_json()}
        acted = timed | {"timeout": True} if timeout else timed
        for event in events:
            match event.kind:
                case EventKind.ACTION:
                    assert event.action is not None
                    hand = table.hand if event.after is None else event.after
                    out += self.numbered(event.v, _with(event_message(hand, event), acted))
                case EventKind.HAND_OVER:
                    hand = table.hand
                    revealed = table.revealed_fair(table.hand_number)
                    extra: Message = {
                        "match": self.match_json(),
                        "sheet": sheet_json(explain(hand.result(), hand.rules)),
                        "fair": None if revealed is None else revealed.to_json(table.hand_number),
                    }
                    for seat, cards in (claimed or {}).items():
                        order = claim_order(cards, hand.contract.trump if hand.contract else None)
                        extra["claimed"] = {"seat": seat.name, "cards": [c.text for c in order]}
                    over = view_message(MessageType.HAND_OVER, event.v, hand, extra | timed)
                    out += self.numbered(event.v, over)
                case EventKind.DEAL:
                    extra = {"match": self.match_json()} | timed
                    deal = view_message(MessageType.DEAL, event.v, table.hand, extra)
                    out += self.numbered(event.v, deal)
                    self.history.restart()
                case EventKind.UNDO:  # a snapshot that supersedes the history
                    out += self.numbered(event.v, self.snapshot)
                    self.history.restart()
                case EventKind.SEAT | EventKind.SAID:  # told by seat() and by the room's talk
                    raise AssertionError("a seat or said event is published with its message")
                case never:
                    assert_never(never)
        return out

    def numbered(self, v: int, build: Build) -> list[Outgoing]:
        """The message numbered ``v`` (its event's) in each audience's version, built and
        encoded once per audience: kept for resync, and addressed to every open connection."""
        connections = self.seating.connections
        messages = {seat: Sent(build(seat)) for seat in {c.seat for c in connections}}
        self.history.add(v, messages)
        return [(c, messages[c.seat]) for c in connections]


def _with(build: Build, extra: Message) -> Build:
    """``build``, its every version with ``extra`` added."""
    return lambda audience: build(audience) | extra
