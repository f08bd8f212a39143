"""The decisions a seat sends a room (:class:`SeatDecisions`): an action, ``next``, its
entropy, an undo, a claim, a line of talk; each applied exactly once under its client ``id``
(one sent again is answered ``ack`` alone), answered ``ack`` before the messages of what it
caused, and noted as a step of its own. A decision the table refuses changes nothing: it is
:class:`~baloot.server.messages.Refused`, which the room answers with a ``reject``.

>>> from baloot.server.room import Room
>>> from baloot.table.players import Player
>>> room = Room.create({Seat.S: Player.human("Saad")}, seed=7, room_id="t1")
>>> south, _ = room.connect(room.tokens[Seat.S])
>>> [message["type"] for _, message in room.decisions.undo(south, "u1")]
Traceback (most recent call last):
baloot.server.messages.Refused: there is nothing to undo
>>> watcher, _ = room.connect(None)
>>> seat_of(watcher, "c1")
Traceback (most recent call last):
baloot.server.messages.Refused: a spectator may not act
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from baloot.core.errors import IllegalActionError, NotationError
from baloot.core.reasons import ReasonCode
from baloot.core.seats import Seat
from baloot.server.bot_turns import BotTurns
from baloot.server.claims import Claimed, claim
from baloot.server.deadlines import Waits
from baloot.server.journal import StepKind
from baloot.server.messages import Act, GiveEntropy, Next, Refused, RejectCode, Say
from baloot.server.outgoing import Ack, Said
from baloot.server.publishing import Outgoing, Publisher
from baloot.server.room_journal import RoomJournal
from baloot.server.seating import Connection
from baloot.server.talk import SAY_EVERY, Line, Talk
from baloot.table.table import Event, Table

T = TypeVar("T")


class SeatDecisions:
    """What a seat decides at its table, applied once, published and noted."""

    def __init__(
        self,
        table: Table,
        waits: Waits,
        talk: Talk,
        publisher: Publisher,
        journal: RoomJournal,
        bots: BotTurns,
    ) -> None:
        self.table = table
        self.waits = waits
        self.talk = talk
        self.publisher = publisher
        self.journal = journal
        self.bots = bots

    def act(self, connection: Connection, message: Act) -> list[Outgoing]:
        """An action of the seat's, in record notation: ``ack``, then its events. A spectator,
        or an ``id`` already answered, is refused before the action is looked at; the action
        read as the message was (:attr:`Act.parsed`) is not read again."""
        id_ = message.id
        seat = seat_of(connection, id_)
        if self.journal.remembered(seat, id_):
            return [(connection, Ack(id_).sent())]
        try:
            parsed = message.parsed
            events = self.table.submit(seat, message.action if parsed is None else parsed)
        except NotationError as error:
            raise Refused(id_, ReasonCode.BAD_NOTATION, str(error)) from None
        except IllegalActionError as error:
            raise Refused.illegal(id_, error) from None
        self.journal.remember(seat, id_)
        out = [(connection, Ack(id_).sent()), *self.publisher.events(events)]
        self.journal.note(StepKind.ACT, seat, id_, events)
        return out

    def ready(self, connection: Connection, message: Next) -> list[Outgoing]:
        """The seat is ready for the next hand, with its entropy for that hand's deal."""

        def ready(seat: Seat) -> list[Event]:
            return self.table.ready(seat, message.entropy)

        out = self._once(connection, message.id, StepKind.NEXT, ready, entropy=message.entropy)
        return out + self.bots.deal_for_stand_ins()

    def give_entropy(self, connection: Connection, message: GiveEntropy) -> list[Outgoing]:
        """The seat's entropy for a hand whose commitment is published and that is not dealt
        (once per seat and hand, ``not_now`` otherwise); the first hand is dealt once every
        human seat gave its own."""
        number = message.hand

        def give(seat: Seat) -> list[Event]:
            if not self.table.wants_entropy(seat, number):
                raise Refused(
                    message.id,
                    RejectCode.NOT_NOW,
                    f"hand {number} takes no entropy of {seat.name} now: only once, after its "
                    "commitment is published and before it is dealt",
                )
            return self.table.give_entropy(seat, message.entropy)

        return self._once(connection, message.id, StepKind.ENTROPY, give, entropy=message.entropy)

    def say(self, connection: Connection, message: Say) -> list[Outgoing]:
        """A line of table talk, told to every connection as a numbered ``said``."""
        id_ = message.id
        seat = seat_of(connection, id_, "a spectator may read the table talk, not talk")
        if self.journal.remembered(seat, id_):
            return [(connection, Ack(id_).sent())]
        now = self.waits.clock()
        if not self.talk.may_say(seat, now):
            raise Refused(
                id_, RejectCode.RATE_LIMITED, f"one line every {SAY_EVERY:g} s at most; wait"
            )
        (event,) = self.table.note_said(seat)
        line = Line(event.v, seat, message.text)
        self.talk.said(line, now)
        self.journal.remember(seat, id_)
        said = Said(line).fields()
        out = [(connection, Ack(id_).sent()), *self.publisher.numbered(event.v, lambda _: said)]
        self.journal.note(StepKind.SAY, seat, id_, text=line.text)
        return out

    def undo(self, connection: Connection, id_: str) -> list[Outgoing]:
        """Take back the seat's last decision: ``ack``, then a snapshot for everyone."""
        return self._once(connection, id_, StepKind.UNDO, self.table.undo)

    def claim(self, connection: Connection, id_: str) -> list[Outgoing]:
        """Sawa: ``ack``, then the hand played out (:func:`~baloot.server.claims.claim`)."""
        return self._once(connection, id_, StepKind.CLAIM, lambda seat: claim(self.table, seat))

    def _once(
        self,
        connection: Connection,
        id_: str,
        kind: StepKind,
        call: Callable[[Seat], list[Event] | Claimed],
        entropy: bytes | None = None,
    ) -> list[Outgoing]:
        """A decision by the connection's seat, applied exactly once: a remembered ``id`` is
        answered ``ack`` alone; otherwise ``call`` (refused as a ``reject``), then ``ack``
        and the events it caused (a claim's told with the claimant's cards face up;
        ``entropy`` is a ``next``'s or an ``entropy``'s, kept with its step)."""
        seat = seat_of(connection, id_)
        if self.journal.remembered(seat, id_):
            return [(connection, Ack(id_).sent())]
        done = engine(id_, lambda: call(seat))
        self.journal.remember(seat, id_)
        if isinstance(done, Claimed):
            events, told = done.events, self.publisher.events(done.events, done.cards)
        else:
            events, told = done, self.publisher.events(done)
        out = [(connection, Ack(id_).sent()), *told]
        self.journal.note(kind, seat, id_, events, entropy)
        return out


def seat_of(connection: Connection, id_: str, refusal: str = "a spectator may not act") -> Seat:
    """The connection's seat; a spectator may not decide (``refusal`` says so)."""
    if connection.seat is None:
        raise Refused(id_, RejectCode.SPECTATOR, refusal)
    return connection.seat


def engine(id_: str, call: Callable[[], T]) -> T:
    """``call``, its refusal by the table as a ``reject`` with the engine's reason."""
    try:
        return call()
    except IllegalActionError as error:
        raise Refused.illegal(id_, error) from None
