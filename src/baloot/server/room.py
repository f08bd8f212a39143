"""A room: one :class:`~baloot.table.Table` that speaks the table protocol ``baloot-table/1``.

The protocol is normative in ``docs/table-protocol.md``; a :class:`Room` is its transport-free
heart. Messages are plain dicts (what goes over a WebSocket as JSON text), and the room does
no I/O and reads no clock but the one it is given: no sockets, no sleeps, no timers. Whoever
holds the room (a web server, a test) carries the messages and decides when time has passed;
the room says until when the table waits (:meth:`Room.deadline`, which every message tells).
The room answers client messages and builds the server's; who sits where (the seats' tokens,
the connections, who plays for an absent human) is its :class:`~baloot.server.seating.Seating`.

How a server drives it:

- On a WebSocket handshake, :meth:`Room.connect` with the link's token (None for a
  spectator). An unknown token raises :class:`~baloot.server.seating.RoomError`: close with
  its ``close_code`` (4403). Otherwise send the returned messages: the new connection's
  ``snapshot`` first, and to the other connections the ``seat`` message that says the seat
  is back, if it is and may be told now.
- For every text frame, :meth:`Room.receive`; send each returned ``(connection, message)``
  in order (the acting connection's ``ack`` comes before the events of its action).
- Whenever the table waits for a bot (:meth:`Room.waiting_for_bot`), call
  :meth:`Room.step_bot` (at once, or after a short pause so that people can follow) and send
  what it returns; repeat until it returns nothing.
- When a socket closes, :meth:`Room.disconnect`, and send what it returns.
- A seat's comings and leavings are told at most once every few seconds
  (:mod:`~baloot.server.presence`): when :meth:`Room.presence_due` passes, call
  :meth:`Room.tell_presence` and send what it returns. Telling them, a ``ping``, a
  ``resync`` and anything a spectator sends change nothing the table waits for
  (:meth:`Room.turn`, :meth:`Room.deadline`): a server's timer runs on through them.
- Timers are the server's, set for :meth:`Room.deadline`: when a ``turn`` or ``stand-in``
  deadline passes it calls :meth:`Room.time_out`, when a ``next`` or a ``deal`` one does
  :meth:`Room.deal`.
- Fair deals (a room made without a seed): the first hand's secret is in the room's
  :meth:`Room.config`, each later one in the step that ended the hand before it, so both are
  stored before anything that follows them is sent (:meth:`Room.take_steps`). The players'
  entropy always comes after the commitment it is mixed with, in an ``entropy`` message (or a
  ``next``): the first hand of a table with human seats waits for theirs, until its ``deal``
  deadline (until then a ``snapshot`` holds ``"view": null``).

Every numbered message (``event``, ``hand-over``, ``deal``, ``seat``, ``said``, and the ``snapshot``
that follows an undo) takes the ``v`` of the table's event it tells (the table keeps the one
count, :attr:`~baloot.table.Table.version`), the same for every connection, in the version of
each connection's seat (:mod:`~baloot.server.publishing`); the last of them are kept to answer
``resync`` (:mod:`~baloot.server.history`). The room wires its collaborators: the
:class:`~baloot.server.publishing.Publisher` of its messages, the
:class:`~baloot.server.bot_turns.BotTurns` of its bots, the
:class:`~baloot.server.room_journal.RoomJournal` of its steps, and its deadlines
(:class:`~baloot.server.deadlines.Waits`).

>>> import json
>>> room = Room.create({Seat.S: Player.human("Saad")}, seed=7, room_id="t1")
>>> south, first = room.connect(room.tokens[Seat.S])
>>> [(message["type"], message["v"]) for _, message in first]
[('snapshot', 1)]
>>> first[0][1]["seats"]["S"]
{'player': 'Saad', 'connected': True}
>>> while room.waiting_for_bot():
...     _ = room.step_bot()
>>> legal = room.table.view(Seat.S).legal
>>> out = room.receive(south, json.dumps({"type": "act", "id": "c1", "action": str(legal[0])}))
>>> [message["type"] for _, message in out]
['ack', 'event']
>>> [message["type"] for _, message in room.receive(south, '{"type": "act", "id": "c1"}')]
['reject']
"""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, assert_never

from baloot.bots.best_hints import BestHints, Hinted, HintTask
from baloot.bots.decisions import Decision, DecisionTask
from baloot.core.rules import Rules
from baloot.core.seats import Seat
from baloot.records.fair import SECRET_BYTES, read_entropy
from baloot.records.record import read_rules, rules_json
from baloot.server.bot_turns import BotTurns
from baloot.server.deadlines import Deadline, Timing, Waits, millis
from baloot.server.history import HISTORY
from baloot.server.journal import Step, TableConfig
from baloot.server.messages import (
    Act,
    AskHint,
    Claim,
    ClientMessage,
    GiveEntropy,
    Message,
    Next,
    Ping,
    Refused,
    Resync,
    Say,
    Undo,
    parse,
)
from baloot.server.outgoing import Pong, Reject
from baloot.server.presence import Presence
from baloot.server.publishing import Outgoing, Publisher
from baloot.server.room_hints import HintBot, Hints
from baloot.server.room_journal import RoomJournal, Secrets
from baloot.server.seat_decisions import SeatDecisions
from baloot.server.seating import Connection, Seating, seat_table
from baloot.server.talk import Talk
from baloot.table.fair_deals import FairDeals
from baloot.table.players import Player
from baloot.table.table import Table, WaitKind

#: The protocol's name.
PROTOCOL: Final = "baloot-table/1"


class Room:
    """One table and its connections, speaking ``baloot-table/1`` as plain dicts.

    ``seating`` says who sits where (:class:`~baloot.server.seating.Seating`: the tokens, the
    connections, the stand-ins; ``token_digests`` brings a stored table's back); ``v`` is the
    last number of the table's history. ``hint_bot`` answers ``hint`` (the terminal's
    :class:`~baloot.bots.best_hints.BestHints` unless given); ``history`` bounds the numbered
    steps kept for ``resync``; ``record_url`` is the record's address, shown in ``MATCH`` once
    the match is over. ``timing`` holds the table's waits and ``clock`` gives the time in
    seconds since the epoch: with them the room works out its :meth:`deadline`, the ``now`` of
    its messages and the pace of table talk; ``created`` is when the table was made (now,
    unless given), which its first hand's wait for the players' entropy counts from.
    ``secret_bytes`` gives the secrets of its hands' fair deals (the system's
    :func:`secrets.token_bytes`; a test's seeded source makes its games reproducible).
    """

    def __init__(
        self,
        table: Table,
        room_id: str | None = None,
        *,
        hint_bot: HintBot | None = None,
        history: int = HISTORY,
        record_url: str | None = None,
        token_digests: Mapping[Seat, str] | None = None,
        timing: Timing | None = None,
        clock: Callable[[], float] = time.time,
        secret_bytes: Callable[[int], bytes] = secrets.token_bytes,
        created: float | None = None,
    ) -> None:
        self.table = table
        self.talk = Talk()
        self.id = room_id if room_id is not None else secrets.token_urlsafe(9)
        self.seating = Seating(table, token_digests)
        self.presence = Presence()
        when = clock() if created is None else created
        self.waits = Waits(table, self.seating, timing or Timing(), clock, when)
        drawn = Secrets(secret_bytes)
        if table.fair is not None:
            table.fair.draw = drawn.draw
        self.journal = RoomJournal(table, self.seating, self.talk, drawn)
        self.publisher = Publisher(
            self.id,
            table,
            self.seating,
            self.waits,
            self.presence,
            self.talk,
            self.journal,
            history,
            record_url,
        )
        self.bots = BotTurns(self.id, table, self.seating, self.publisher, self.journal)
        self.decisions = SeatDecisions(
            table, self.waits, self.talk, self.publisher, self.journal, self.bots
        )
        self.hints = Hints(table, hint_bot or BestHints(random.Random(0)))

    @classmethod
    def create(
        cls,
        players: Mapping[Seat, Player] | None = None,
        rules: Rules | None = None,
        seed: int | None = None,
        room_id: str | None = None,
        history: int = HISTORY,
        token_digests: Mapping[Seat, str] | None = None,
        timing: Timing | None = None,
        clock: Callable[[], float] = time.time,
        secret_bytes: Callable[[int], bytes] = secrets.token_bytes,
    ) -> Room:
        """A room as ``POST /api/tables`` describes it (:func:`~baloot.server.requests.read_request`
        reads one): ``players`` seats its players, a seat left out is the bot of
        :attr:`Roles.unnamed_seat <baloot.bots.levels.Roles.unnamed_seat>`; ``history``,
        ``timing`` and ``clock`` as for the constructor. An unknown bot is an
        :class:`~baloot.bots.UnknownBotError`. ``token_digests`` keeps the human seats' tokens
        of another table (a rematch), instead of making new ones.

        Without a ``seed`` (a server's tables), every deal is fair (``docs/table-protocol.md``):
        each hand's deck is derived from a fresh secret of ``secret_bytes`` and the human seats'
        entropy, which comes after its commitment (the first hand waits for it at a table with human
        seats); the first dealer and the bots' generators come from a secret seed of it too. With a
        ``seed`` (a table that must be reproducible: tests, examples), every deck is dealt from it
        (:func:`~baloot.server.seating.seat_table`) and no deal has a fair table.
        """
        if seed is not None:
            table = seat_table(players or {}, rules, seed)
        else:
            first = FairDeals(lambda: secret_bytes(SECRET_BYTES))  # kept by its config
            table = seat_table(players or {}, rules, None, first, None, secret_bytes)
        return cls(
            table,
            room_id,
            history=history,
            token_digests=token_digests,
            timing=timing,
            clock=clock,
            secret_bytes=secret_bytes,
        )

    @classmethod
    def from_config(cls, config: TableConfig, steps: Sequence[Step] = (), **options: Any) -> Room:
        """The room that ``config`` describes, brought to where ``steps`` left it (see
        :meth:`restore`); ``options`` as for the constructor."""
        players = {
            Seat[seat]: Player.human(label) if seat in config.humans else Player.parse(label)
            for seat, label in config.players.items()
        }
        rules = read_rules(config.rules)[0]
        if config.fair is None:
            table = seat_table(players, rules, config.seed)
        else:
            first = Secrets(kept=[config.fair["secret"]])
            dealt_with = config.fair.get("entropy")  # a table whose first hand did not wait
            entropy = None
            if dealt_with is not None:
                entropy = {Seat[seat]: read_entropy(text) for seat, text in dealt_with.items()}
            table = seat_table(players, rules, config.seed, FairDeals(first.draw), entropy)
            first.check_all_used("the config")
        digests = {Seat[seat]: digest for seat, digest in config.tokens.items()}
        room = cls(table, config.id, token_digests=digests, created=config.created, **options)
        room.restore(steps)
        return room

    @property
    def v(self) -> int:
        """The last number of the table's history: its table's :attr:`~Table.version`."""
        return self.table.version

    @property
    def tokens(self) -> dict[Seat, str]:
        """The secret token of each human seat, for whoever creates the table (none for a
        table brought back from storage, which keeps only their digests)."""
        return self.seating.tokens

    def config(self, *, timer: float | None, public: bool, created: float) -> TableConfig:
        """What storage keeps to make this room again (:meth:`from_config`)."""
        table = self.table
        assert table.seed is not None
        fair = None
        if table.fair is not None:
            first = table.fair.fairs[1]
            assert first.secret is not None
            fair = {"secret": first.secret.hex()}  # its entropy comes later, in steps
        return TableConfig(
            id=self.id,
            players={seat.name: table.players[seat].label for seat in Seat},
            humans=tuple(seat.name for seat in table.humans),
            rules=rules_json(table.match.rules),
            seed=table.seed,
            timer=timer,
            public=public,
            tokens={seat.name: digest for seat, digest in self.seating.token_digests.items()},
            created=created,
            fair=fair,
        )

    @property
    def timing(self) -> Timing:
        """The table's waits (a server sets its own once the table is made)."""
        return self.waits.timing

    @timing.setter
    def timing(self, timing: Timing) -> None:
        self.waits.timing = timing

    @property
    def clock(self) -> Callable[[], float]:
        """The time in seconds since the epoch (a server sets its own)."""
        return self.waits.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self.waits.clock = clock

    @property
    def created(self) -> float:
        """When the table was made, which its first hand's wait for entropy counts from."""
        return self.waits.created

    @created.setter
    def created(self, created: float) -> None:
        self.waits.created = created

    @property
    def record_url(self) -> str | None:
        """The record's address, shown in ``MATCH`` once the match is over."""
        return self.publisher.record_url

    @record_url.setter
    def record_url(self, url: str | None) -> None:
        self.publisher.record_url = url

    @property
    def hint_bot(self) -> HintBot:
        """The bot that answers ``hint``."""
        return self.hints.bot

    @hint_bot.setter
    def hint_bot(self, bot: HintBot) -> None:
        self.hints.bot = bot

    # ------------------------------------------------------------------ the journal

    def take_steps(self) -> tuple[int, list[Step]]:
        """The steps taken since the last call (:meth:`RoomJournal.take_steps
        <baloot.server.room_journal.RoomJournal.take_steps>`), to be stored before their
        messages are sent."""
        return self.journal.take_steps()

    def restore(self, steps: Sequence[Step]) -> None:
        """Take ``steps`` again, as stored (:meth:`RoomJournal.restore
        <baloot.server.room_journal.RoomJournal.restore>`); nothing is sent, and the history
        for ``resync`` starts afresh."""
        self.journal.restore(steps)

    # ------------------------------------------------------------------ connections

    def connect(self, token: str | None) -> tuple[Connection, list[Outgoing]]:
        """A new connection for the seat of ``token``, or a spectator's (None).

        Returns it and the messages to send: its ``snapshot`` first, then to every other
        connection the ``seat`` message saying the seat is connected, when that is news and
        may be told now (:mod:`~baloot.server.presence`; a human whose stand-in played for
        them is told back at once), and the next hand's ``deal`` when the seat's coming
        lets it be dealt (:meth:`BotTurns.deal_for_stand_ins
        <baloot.server.bot_turns.BotTurns.deal_for_stand_ins>`). An unknown token raises
        :class:`~baloot.server.seating.RoomError` (close code 4403).
        """
        seating = self.seating
        seat = seating.seat_of(token)
        connection = seating.join(seat)  # joined first: the deadlines know the seat is here
        if seat is None:
            return connection, [(connection, self.publisher.snapshot(None))]
        stood_down = seating.stood_in(seat)
        seating.back(seat)
        told = self._tell_presence(seat, at_once=stood_down)
        out = [(c, m) for c, m in told if c is not connection]
        return connection, [
            (connection, self.publisher.snapshot(seat)),
            *out,
            *self.bots.deal_for_stand_ins(),
        ]

    def disconnect(self, connection: Connection) -> list[Outgoing]:
        """``connection`` is closed; the ``seat`` message saying its seat has no connection
        left, when that is news and may be told now (:mod:`~baloot.server.presence`)."""
        if not connection.open:
            return []
        self.seating.leave(connection)
        seat = connection.seat
        return [] if seat is None else self._tell_presence(seat)

    def presence_due(self) -> float | None:
        """When a seat's coming or leaving not told yet may be told (:meth:`tell_presence`),
        by the room's clock; None when every seat is as last told."""
        now, every = self.clock(), self.timing.presence
        dues = (
            self.presence.due(seat, self.seating.connected(seat), now, every)
            for seat in self.table.humans
        )
        return min((due for due in dues if due is not None), default=None)

    def tell_presence(self) -> list[Outgoing]:
        """The ``seat`` messages of the comings and leavings that may be told now and still
        hold (a seat that left and came back meanwhile is no news)."""
        out: list[Outgoing] = []
        for seat in self.table.humans:
            out += self._tell_presence(seat)
        return out

    def _tell_presence(self, seat: Seat, *, at_once: bool = False) -> list[Outgoing]:
        """The ``seat`` message saying whether the human of ``seat`` is connected, when that
        is news and its seat's interval is over (``at_once``: whenever it is news)."""
        connected = self.seating.connected(seat)
        now = self.clock()
        due = self.presence.due(seat, connected, now, self.timing.presence)
        if due is None or (due > now and not at_once):
            return []
        return self.publisher.seat(seat, connected)

    # ------------------------------------------------------------------ client messages

    def receive(self, connection: Connection, text: str) -> list[Outgoing]:
        """One client message (JSON text) from ``connection``: every message to send."""
        try:
            message = parse(text)
        except Refused as refused:
            return self.refuse(connection, refused)
        return self.answer(connection, message)

    def answer(self, connection: Connection, message: ClientMessage) -> list[Outgoing]:
        """One client message, read (:func:`~baloot.server.messages.parse`), from
        ``connection``: every message to send."""
        if not connection.open:
            return []
        try:
            match message:
                case Act():
                    return self.decisions.act(connection, message)
                case Resync(since=since):
                    return self.publisher.resync(connection, since)
                case Ping():
                    return [(connection, Pong(millis(self.clock())).sent())]
                case Next():
                    return self.decisions.ready(connection, message)
                case GiveEntropy():
                    return self.decisions.give_entropy(connection, message)
                case Undo(id=id_):
                    return self.decisions.undo(connection, id_)
                case AskHint(id=id_):
                    return self.hints.answer(connection, id_)
                case Claim(id=id_):
                    return self.decisions.claim(connection, id_)
                case Say():
                    return self.decisions.say(connection, message)
                case never:
                    assert_never(never)
        except Refused as refused:
            return self.refuse(connection, refused)

    def refuse(self, connection: Connection, refused: Refused) -> list[Outgoing]:
        """The ``reject`` of a client message refused; nothing changed."""
        if not connection.open:
            return []
        return [(connection, Reject.of(refused).sent())]

    def hint_task(
        self, connection: Connection, message: AskHint, seconds: float
    ) -> HintTask | None:
        """The hint ``message`` asks for, as a task to make apart from the table
        (:meth:`Hints.task <baloot.server.room_hints.Hints.task>`): :class:`Refused` when it
        is refused (then :meth:`refuse` answers it), None when :meth:`answer` is to make it."""
        return self.hints.task(connection, message, seconds)

    def hinted(self, connection: Connection, message: AskHint, hinted: Hinted) -> list[Outgoing]:
        """The answer to ``message`` once its :meth:`hint_task` is back."""
        return self.hints.hinted(connection, message, hinted)

    # ------------------------------------------------------------------ the caller's clock

    def deadline(self) -> Deadline | None:
        """What the table waits for and until when (:meth:`Waits.deadline
        <baloot.server.deadlines.Waits.deadline>`); None when it waits for a bot or without
        end."""
        return self.waits.deadline()

    def turn(self) -> tuple[int, int, WaitKind, Seat | None]:
        """What the table waits for, as a value that changes whenever that does
        (:meth:`Waits.turn <baloot.server.deadlines.Waits.turn>`)."""
        return self.waits.turn()

    # ------------------------------------------------------------------ the bots' turns

    def waiting_for_bot(self) -> bool:
        """True when :meth:`step_bot` has something to do."""
        return self.bots.waiting_for_bot()

    def step_bot(self) -> list[Outgoing]:
        """Let the bot to act decide (:meth:`BotTurns.step_bot
        <baloot.server.bot_turns.BotTurns.step_bot>`), and the messages it caused."""
        return self.bots.step_bot()

    def bot_task(self, seconds: float) -> DecisionTask | None:
        """The decision the bot to act is to make, as a task (:meth:`BotTurns.bot_task
        <baloot.server.bot_turns.BotTurns.bot_task>`)."""
        return self.bots.bot_task(seconds)

    def still_asks(self, task: DecisionTask) -> bool:
        """Whether the table still waits for the decision of ``task``."""
        return self.bots.still_asks(task)

    def play_decided(self, task: DecisionTask, decision: Decision) -> list[Outgoing]:
        """Play what the bot of ``task`` decided elsewhere, while the table still asks it."""
        return self.bots.play_decided(task, decision)

    def stand_in_decides(self, seat: Seat) -> list[Outgoing]:
        """The stand-in decides for the bot of ``seat``, whose decision did not come back
        (:meth:`BotTurns.stand_in_decides <baloot.server.bot_turns.BotTurns.stand_in_decides>`)."""
        return self.bots.stand_in_decides(seat)

    def deal(self) -> list[Outgoing]:
        """Deal the next hand now, whoever has not said they are ready (its deadline passed)."""
        return self.bots.deal()

    def time_out(self, seat: Seat) -> list[Outgoing]:
        """The human of ``seat`` ran out of time: the table's bot makes this one decision
        for them (:meth:`BotTurns.time_out <baloot.server.bot_turns.BotTurns.time_out>`)."""
        return self.bots.time_out(seat)

    # ------------------------------------------------------------------ what is sent

    def match_json(self) -> Message:
        """The ``MATCH`` object of the protocol."""
        return self.publisher.match_json()

    def published_fair(self) -> Message | None:
        """The fair table published before the players speak, never its secret."""
        return self.publisher.published_fair()

    def seats_json(self) -> Message:
        """Each seat's player and whether it is connected now."""
        return self.publisher.seats_json()
