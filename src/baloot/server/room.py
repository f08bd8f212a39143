"""A room: one :class:`~baloot.table.Table` that speaks the table protocol ``baloot-table/1``.

The protocol is normative in ``seat-view.md`` §4; a :class:`Room` is its transport-free
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
count, :attr:`~baloot.table.Table.version`), the same for every connection; each
connection gets the version of it for its own seat (its own view, the action as its seat
heard it), so no message carries a card its seat may not know. The room keeps the last
:data:`HISTORY` numbered steps of the hand in play to answer ``resync``, as JSON text and only
in the versions of the audiences connected at the time (a seat that had no connection then, or
a resync from before the hand's deal or an undo, gets a snapshot): what a room holds stays
small however many tables a server has, and no message sent again shows a card of another hand
or one taken back.

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

import functools
import json
import random
import secrets
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from itertools import islice
from typing import Any, Final, Protocol, TypeVar, assert_never

from baloot.bots.base import make_bot
from baloot.bots.best_hints import BestHints, Hinted, HintTask
from baloot.bots.decisions import Decision, DecisionTask
from baloot.bots.heuristic import Hint
from baloot.bots.levels import ROLES
from baloot.bots.workers import DECIDED_HERE
from baloot.core.actions import Action
from baloot.core.cards import CardSet
from baloot.core.claim import claim_order
from baloot.core.errors import IllegalActionError, NotationError
from baloot.core.hand import Hand
from baloot.core.match import TARGET
from baloot.core.reasons import ReasonCode
from baloot.core.rules import Rules
from baloot.core.seats import Seat
from baloot.records.fair import SECRET_BYTES, FairError, read_entropy, read_secret
from baloot.records.record import read_rules, rules_json
from baloot.records.summary import hand_json, teams_json
from baloot.server.deadlines import Deadline, Timing, TurnClock, deadline_of, millis
from baloot.server.journal import JournalError, Step, StepKind, TableConfig
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
    RejectCode,
    Resync,
    Say,
    Undo,
    ack,
    event_message,
    parse,
    reject,
    table_view,
    view_message,
)
from baloot.server.presence import Presence
from baloot.server.seating import Connection, Seating, seat_table
from baloot.server.talk import SAY_EVERY, Line, Talk
from baloot.table.fair_deals import FairDeals
from baloot.table.players import Bot, Player
from baloot.table.table import Event, EventKind, Table, WaitKind
from baloot.view.seat_view import SeatView
from baloot.view.sheet import explain
from baloot.view.sheet import to_json as sheet_json

#: The protocol's name.
PROTOCOL: Final = "baloot-table/1"
#: How many numbered steps a room keeps to answer ``resync``.
HISTORY: Final = 256

T = TypeVar("T")

#: A message and the connection to send it to.
Outgoing = tuple[Connection, Message]


class HintBot(Protocol):
    """A bot that explains its choice (:class:`~baloot.bots.best_hints.BestHints`)."""

    def explain(self, view: SeatView, legal: Sequence[Action]) -> Hint:
        """The action it picks among ``legal`` in ``view``, and why."""
        ...


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
        self.timing = timing or Timing()
        self.clock = clock
        self.created = clock() if created is None else created
        self._turns = TurnClock(lambda: self.clock())  # the clock a server may set later
        self.talk = Talk()
        self.id = room_id if room_id is not None else secrets.token_urlsafe(9)
        self.seating = Seating(table, token_digests)
        self.presence = Presence()
        self.hint_bot: HintBot = hint_bot or BestHints(random.Random(0))
        self.record_url = record_url
        self._history: deque[tuple[int, dict[Seat | None, str]]] = deque(maxlen=history)
        self._remembered: dict[Seat, set[str]] = {seat: set() for seat in Seat}
        self._steps: list[Step] = []
        self._taken = 0
        self._secrets = _Secrets(secret_bytes)
        if table.fair is not None:
            table.fair.draw = self._secrets.draw

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

        Without a ``seed`` (a server's tables), every deal is fair (``seat-view.md`` §4): each
        hand's deck is derived from a fresh secret of ``secret_bytes`` and the human seats'
        entropy, which comes after its commitment (the first hand waits for it at a table with
        human seats); the first dealer and the bots' generators come from a secret seed of it
        too. With a
        ``seed`` (a table that must be reproducible: tests, examples), every deck is dealt
        from it (:func:`~baloot.server.seating.seat_table`) and no deal has a fair table.
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
            first = _Secrets(kept=[config.fair["secret"]])
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

    # ------------------------------------------------------------------ the journal

    def take_steps(self) -> tuple[int, list[Step]]:
        """The steps taken since the last call, to be stored before their messages are sent
        (so that nothing acknowledged is ever lost), and the number of the first of them: a
        table's steps are numbered from 0 in its life, restored ones included, so that its
        journal can refuse steps that do not follow (another copy of the table)."""
        first, steps, self._steps = self._taken, self._steps, []
        self._taken += len(steps)
        return first, steps

    def restore(self, steps: Sequence[Step]) -> None:
        """Take ``steps`` again, as stored: the table, the remembered ids and ``v`` come back
        as they were (a :class:`~baloot.server.journal.JournalError` for a step whose ``v`` is
        not where taking it again leads). Nothing is sent; the history for ``resync`` starts
        afresh. A human seat the bot played for (its time ran out) and that was not told back
        since (a ``seat`` step) is still played for: at once, until its human comes back."""
        table = self.table
        for number, step in enumerate(steps, self._taken):
            self._secrets.keep([] if step.secret is None else [step.secret])
            if step.kind in (StepKind.ACT, StepKind.BOT, StepKind.CLAIM):
                for action in step.actions:
                    table.apply_stored(action, by_bot=_by_bot(step, action))
                if step.kind is StepKind.BOT and step.seat in table.humans:
                    self.seating.stand_in(step.seat)
            elif step.kind is StepKind.NEXT:
                assert step.seat is not None
                entropy = None if step.entropy is None else bytes.fromhex(step.entropy)
                table.ready(step.seat, entropy)
            elif step.kind is StepKind.ENTROPY:
                assert step.seat is not None
                published = table.published_fair()
                number_given = 0 if published is None else published[0]
                if step.entropy is None or not table.wants_entropy(step.seat, number_given):
                    raise JournalError(f"step {number} gives entropy no hand takes")
                table.give_entropy(step.seat, bytes.fromhex(step.entropy))
            elif step.kind is StepKind.DEAL:
                table.deal()
            elif step.kind is StepKind.UNDO:
                assert step.seat is not None
                table.undo_stored(step.seat)
            elif step.kind is StepKind.SEAT:
                assert step.seat is not None
                table.note_seat(step.seat)
                self.seating.back(step.seat)  # a stand-in is told before it plays
            elif step.kind is StepKind.SAY:
                assert step.seat is not None and step.text is not None
                table.note_said(step.seat)
                self.talk.said(Line(table.version, step.seat, step.text))
            if step.seat is not None and step.id is not None:
                self._remembered[step.seat].add(step.id)
            if step.v != table.version:
                raise JournalError(
                    f"step {number} has v {step.v}, where the table is at {table.version}"
                )
            self._secrets.check_all_used(f"step {number}")
        self._secrets.keep(None)
        self._taken += len(steps)

    def _journal(
        self,
        kind: StepKind,
        seat: Seat | None = None,
        id_: str | None = None,
        events: Sequence[Event] = (),
        entropy: bytes | None = None,
        text: str | None = None,
    ) -> None:
        """Note a step, with the secret it drew (the next hand's, when it ended one) and the
        ``entropy`` a ``next`` gave."""
        actions = tuple(str(e.action) for e in events if e.kind is EventKind.ACTION)
        secret = self._secrets.take()
        given = None if entropy is None else entropy.hex()
        step = Step(kind, self.table.version, seat, id_, actions, secret, given, text)
        self._steps.append(step)

    # ------------------------------------------------------------------ connections

    def connect(self, token: str | None) -> tuple[Connection, list[Outgoing]]:
        """A new connection for the seat of ``token``, or a spectator's (None).

        Returns it and the messages to send: its ``snapshot`` first, then to every other
        connection the ``seat`` message saying the seat is connected, when that is news and
        may be told now (:mod:`~baloot.server.presence`; a human whose stand-in played for
        them is told back at once), and the next hand's ``deal`` when the seat's coming
        lets it be dealt (:meth:`_deal_for_stand_ins`). An unknown token raises
        :class:`~baloot.server.seating.RoomError` (close code 4403).
        """
        seating = self.seating
        seat = seating.seat_of(token)
        connection = seating.join(seat)  # joined first: the deadlines know the seat is here
        if seat is None:
            return connection, [(connection, self._snapshot(None))]
        stood_down = seating.stood_in(seat)
        seating.back(seat)
        told = self._tell_presence(seat, at_once=stood_down)
        out = [(c, m) for c, m in told if c is not connection]
        return connection, [(connection, self._snapshot(seat)), *out, *self._deal_for_stand_ins()]

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
        return self._publish_seat(seat, connected)

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
                    return self._act(connection, message)
                case Resync(since=since):
                    return self._resync(connection, since)
                case Ping():
                    return [(connection, {"type": "pong", "now": millis(self.clock())})]
                case Next():
                    return self._next(connection, message)
                case GiveEntropy():
                    return self._give_entropy(connection, message)
                case Undo(id=id_):
                    return self._once(connection, id_, StepKind.UNDO, self.table.undo)
                case AskHint(id=id_):
                    return self._hint(connection, id_)
                case Claim(id=id_):
                    return self._claim(connection, id_)
                case Say():
                    return self._say(connection, message)
                case never:
                    assert_never(never)
        except Refused as refused:
            return self.refuse(connection, refused)

    def refuse(self, connection: Connection, refused: Refused) -> list[Outgoing]:
        """The ``reject`` of a client message refused; nothing changed."""
        if not connection.open:
            return []
        return [(connection, reject(refused.id, refused.code, refused.reason, refused.params))]

    def _act(self, connection: Connection, message: Act) -> list[Outgoing]:
        id_, action = message.id, message.action
        seat = _seat(connection, id_)
        if id_ in self._remembered[seat]:
            return [(connection, ack(id_))]
        try:
            events = self.table.submit(seat, action)
        except NotationError as error:
            raise Refused(id_, ReasonCode.BAD_NOTATION, str(error)) from None
        except IllegalActionError as error:
            raise Refused.illegal(id_, error) from None
        self._remembered[seat].add(id_)
        out = [(connection, ack(id_)), *self._publish(events)]
        self._journal(StepKind.ACT, seat, id_, events)
        return out

    def _next(self, connection: Connection, message: Next) -> list[Outgoing]:
        """The seat is ready for the next hand, with its entropy for that hand's deal."""

        def ready(seat: Seat) -> list[Event]:
            return self.table.ready(seat, message.entropy)

        out = self._once(connection, message.id, StepKind.NEXT, ready, entropy=message.entropy)
        return out + self._deal_for_stand_ins()

    def _give_entropy(self, connection: Connection, message: GiveEntropy) -> list[Outgoing]:
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

    def _deal_for_stand_ins(self) -> list[Outgoing]:
        """Deal the next hand now when every human still awaited is away with their stand-in
        playing for them (such a seat counts as ready) and a human who is here is ready:
        nobody waits out the 30 s for a friend who dropped. A table whose humans are all
        away is left to wait as it does."""
        seating = self.seating
        awaited = self.table.awaiting_next
        if not awaited or not all(seating.stood_in(seat) for seat in awaited):
            return []
        if not any(seating.connected(seat) for seat in self.table.humans):
            return []
        return self.deal()

    def _say(self, connection: Connection, message: Say) -> list[Outgoing]:
        """A line of table talk, told to every connection as a numbered ``said``."""
        id_ = message.id
        seat = _seat(connection, id_, "a spectator may read the table talk, not talk")
        if id_ in self._remembered[seat]:
            return [(connection, ack(id_))]
        now = self.clock()
        if not self.talk.may_say(seat, now):
            raise Refused(
                id_, RejectCode.RATE_LIMITED, f"one line every {SAY_EVERY:g} s at most; wait"
            )
        (event,) = self.table.note_said(seat)
        line = Line(event.v, seat, message.text)
        self.talk.said(line, now)
        self._remembered[seat].add(id_)
        said = {"type": "said", **line.to_json()}
        out = [(connection, ack(id_)), *self._publish_each(event.v, lambda _: said)]
        self._journal(StepKind.SAY, seat, id_, text=line.text)
        return out

    def _claim(self, connection: Connection, id_: str) -> list[Outgoing]:
        claimed: dict[Seat, CardSet] = {}

        def claim(seat: Seat) -> list[Event]:
            if self.table.match.is_over:
                raise IllegalActionError.of(ReasonCode.MATCH_OVER)
            cards = self.table.hand.hand(seat)
            events = self.table.claim(seat)
            claimed[seat] = cards
            return events

        return self._once(
            connection, id_, StepKind.CLAIM, claim, lambda: self.table.hand.copy(), claimed=claimed
        )

    def _once(
        self,
        connection: Connection,
        id_: str,
        kind: StepKind,
        call: Callable[[Seat], list[Event]],
        before: Callable[[], Hand] | None = None,
        entropy: bytes | None = None,
        claimed: Mapping[Seat, CardSet] | None = None,
    ) -> list[Outgoing]:
        """A decision by the connection's seat, applied exactly once: a remembered ``id`` is
        answered ``ack`` alone; otherwise ``call`` (refused as a ``reject``), then ``ack``
        and the events it caused (``before`` gives the hand before them, ``claimed`` the
        claimant's cards once ``call`` accepted them, for a claim; ``entropy`` is a
        ``next``'s or an ``entropy``'s, kept with its step)."""
        seat = _seat(connection, id_)
        if id_ in self._remembered[seat]:
            return [(connection, ack(id_))]
        hand = None if before is None else _engine(id_, before)
        events = _engine(id_, lambda: call(seat))
        self._remembered[seat].add(id_)
        out = [(connection, ack(id_)), *self._publish(events, hand, claimed)]
        self._journal(kind, seat, id_, events, entropy)
        return out

    def _hint(self, connection: Connection, id_: str) -> list[Outgoing]:
        view = self._hint_view(connection, id_)
        return _hint_message(connection, id_, self.hint_bot.explain(view, view.legal))

    def hint_task(
        self, connection: Connection, message: AskHint, seconds: float
    ) -> HintTask | None:
        """The hint ``message`` asks for, as a task to make apart from the table (a hint
        changes nothing) with a clock of ``seconds``: :class:`Refused` when it is refused
        (then :meth:`refuse` answers it), None when :meth:`answer` is to make it instead (a
        closed connection, or a hint bot that is not the one a task makes)."""
        if not connection.open:
            return None
        view = self._hint_view(connection, message.id)
        if not isinstance(self.hint_bot, BestHints):
            return None
        return HintTask.of(self.hint_bot, view, view.legal, seconds)

    def hinted(self, connection: Connection, message: AskHint, hinted: Hinted) -> list[Outgoing]:
        """The answer to ``message`` once its :meth:`hint_task` is back: the hint bot moves
        on as if it had given the hint itself."""
        if isinstance(self.hint_bot, BestHints):
            hinted.restore(self.hint_bot)
        if not connection.open:
            return []
        return _hint_message(connection, message.id, hinted.hint)

    def _hint_view(self, connection: Connection, id_: str) -> SeatView:
        """The view of the seat of ``connection`` that asks a hint now, or its refusal."""
        seat = _seat(connection, id_)
        _engine(id_, self.table.check_hint_allowed)
        waiting = self.table.waiting()
        if waiting.kind is WaitKind.OVER:
            raise Refused(id_, ReasonCode.MATCH_OVER, "the match is over")
        if waiting.kind is WaitKind.DEAL:
            raise Refused.illegal(id_, IllegalActionError.of(ReasonCode.NO_HAND_YET))
        if waiting.seat is None:
            raise Refused(id_, ReasonCode.HAND_OVER, "the hand is over")
        if waiting.seat != seat:
            error = IllegalActionError.of(ReasonCode.NOT_YOUR_TURN, seat=waiting.seat.name)
            raise Refused.illegal(id_, error)
        return self.table.view(seat)

    def _resync(self, connection: Connection, since: int) -> list[Outgoing]:
        if since == self.v:
            return []
        first = self._history[0][0] if self._history else self.v + 1
        if 0 <= since < self.v and first <= since + 1:
            kept = [
                m.get(connection.seat) for _, m in islice(self._history, since + 1 - first, None)
            ]
            if all(text is not None for text in kept):
                return [(connection, json.loads(text)) for text in kept if text is not None]
        return [(connection, self._snapshot(connection.seat))]

    # ------------------------------------------------------------------ the caller's clock

    def deadline(self) -> Deadline | None:
        """What the table waits for and until when (``seat-view.md`` §4), by its clock; None
        when it waits for a bot or without end (:func:`~baloot.server.deadlines.deadline_of`).
        A ``hand-over`` that none of the table's humans is connected to pauses the table (no
        deadline); the wait for ``next`` starts afresh when one of them comes back."""
        turn = self.turn()
        paused = turn[2] is WaitKind.NEXT and self.seating.humans_away()
        started = self._turns.started((turn, paused))
        return deadline_of(self.table, self.seating, self.timing, started, self.created)

    def turn(self) -> tuple[int, int, WaitKind, Seat | None]:
        """What the table waits for, as a value that changes whenever that does: the hand,
        how many actions it holds, and the kind and seat of the wait. A server keeps its timer
        running while it stays the same (a ``seat`` or ``said`` message changes nothing)."""
        table = self.table
        waiting = table.waiting()
        actions = len(table.hand.actions) if table.match.hands else 0
        return table.hand_number, actions, waiting.kind, waiting.seat

    def _deadline_json(self) -> Message | None:
        deadline = self.deadline()
        return None if deadline is None else deadline.to_json()

    def waiting_for_bot(self) -> bool:
        """True when :meth:`step_bot` has something to do."""
        kind = self.table.waiting().kind
        return kind is WaitKind.BOT or (kind is WaitKind.NEXT and not self.table.humans)

    def step_bot(self) -> list[Outgoing]:
        """Let the bot to act decide, and the messages it caused; nothing when the table
        does not wait for a bot. At a table without humans it also deals the next hand."""
        waiting = self.table.waiting()
        if waiting.kind is WaitKind.BOT:
            return self._bot_plays(waiting.seat)
        if waiting.kind is WaitKind.NEXT and not self.table.humans:
            return self.deal()
        return []

    def bot_task(self, seconds: float) -> DecisionTask | None:
        """The decision the bot to act is to make, as a task to send to a worker or a
        cluster with a clock of ``seconds``; None when the table waits for no bot, or when its
        bot decides where it is (a program, or a bot quicker to ask than to send)."""
        waiting = self.table.waiting()
        if waiting.kind is not WaitKind.BOT or waiting.seat is None:
            return None
        seat = waiting.seat
        name = self.table.players[seat].name
        if name in DECIDED_HERE:
            return None
        legal = self.table.hand.legal_actions()
        try:
            return DecisionTask.of(
                self.table.bots[seat], self.table.view(seat), legal, seconds, name
            )
        except ValueError:  # a program of the operator's: it is a process of its own already
            return None

    def still_asks(self, task: DecisionTask) -> bool:
        """Whether the table still waits for the decision of ``task``: its seat is to act and
        sees what the task holds (no undo, no claim since, and the seat's seat messages do not
        count), so the decision is one for now."""
        waiting = self.table.waiting()
        seat = task.view.seat
        return (
            waiting.kind is WaitKind.BOT
            and waiting.seat == seat
            and seat is not None
            and self.table.view(seat) == task.view
        )

    def play_decided(self, task: DecisionTask, decision: Decision) -> list[Outgoing]:
        """Play what the bot of ``task`` decided elsewhere, while the table still asks it
        (:meth:`still_asks`): the bot moves on as if it had decided here."""
        seat = task.view.seat
        assert seat is not None
        decision.restore(self.table.bots[seat])
        events = self.table.play_decided(seat, decision.action)
        out = self._publish(events)
        self._journal(StepKind.BOT, seat, None, events)
        return out

    def stand_in_decides(self, seat: Seat) -> list[Outgoing]:
        """The bot of ``seat`` could not decide where its decision was sent (its worker died
        or hung, the cluster went away): the stand-in makes this one decision. A ``seat``
        message says first that the seat does not answer, a second that it is back. Nothing
        happens unless ``seat`` is the bot seat to act."""
        waiting = self.table.waiting()
        if waiting.kind is not WaitKind.BOT or waiting.seat != seat:
            return []
        self.seating.not_answering(seat)
        out = self._publish_seat(seat, False)
        events = self.table.play_bot(seat, by=self._stand_in)
        out += self._publish(events)
        self._journal(StepKind.BOT, seat, None, events)
        self.seating.answering(seat)
        return out + self._publish_seat(seat, True)

    @functools.cached_property
    def _stand_in(self) -> Bot:
        """The bot that decides for a bot seat whose decision did not come back."""
        return make_bot(ROLES.stand_in, random.Random(f"{self.id}:stand-in"))

    def deal(self) -> list[Outgoing]:
        """Deal the next hand now, whoever has not sent ``next`` (the caller's 30 s after
        ``hand-over``), or the first one, whoever has not given their entropy (its ``deal``
        deadline); nothing unless the table waits for that."""
        if self.table.waiting().kind not in (WaitKind.NEXT, WaitKind.DEAL):
            return []
        out = self._publish(self.table.deal())
        self._journal(StepKind.DEAL)
        return out

    def time_out(self, seat: Seat) -> list[Outgoing]:
        """The human of ``seat`` ran out of time (its :meth:`deadline` passed: the turn timer,
        or the wait for a disconnected human): the table's bot makes this one decision for
        them, and its ``event`` says so (``"timeout": true``).

        A ``seat`` message says first that the bot plays for the seat; for a connected human
        a second one says the seat is theirs again at once, for a disconnected one when they
        come back (until then their every turn is played at once). Nothing happens unless
        ``seat`` is a human seat to act.
        """
        waiting = self.table.waiting()
        if waiting.kind is not WaitKind.HUMAN or waiting.seat != seat:
            return []
        connected = self.seating.connected(seat)
        out: list[Outgoing] = []
        if self.seating.stand_in(seat):
            out += self._publish_seat(seat, connected)
        out += self._bot_plays(seat, timeout=True)
        if connected:
            self.seating.back(seat)
            out += self._publish_seat(seat, True)
        return out

    def _bot_plays(self, seat: Seat | None, timeout: bool = False) -> list[Outgoing]:
        events = self.table.play_bot(seat)
        out = self._publish(events, timeout=timeout)
        self._journal(StepKind.BOT, seat, None, events)
        return out + self._programs_status()

    def _programs_status(self) -> list[Outgoing]:
        """A ``seat`` message for each operator's program that has just failed (not
        connected: its stand-in plays) or decided well again (connected)."""
        out: list[Outgoing] = []
        for seat in self.seating.programs_changed():
            out += self._publish_seat(seat, self.seating.connected(seat))
        return out

    # ------------------------------------------------------------------ what is sent

    def match_json(self) -> Message:
        """The ``MATCH`` object of the protocol."""
        match = self.table.match
        winner = match.winner
        return {
            "id": self.id,
            "hand": _hand_of(self.table),
            "totals": teams_json(match.totals),
            "hands": [hand_json(result) for result in match.results],
            "target": TARGET,
            "winner": None if winner is None else winner.name,
            "awaiting_next": [seat.name for seat in self.table.awaiting_next],
            "record": self.record_url if match.is_over else None,
            "fair": self.published_fair(),
        }

    def published_fair(self) -> Message | None:
        """The fair table published before the players speak (``seat-view.md`` §4): the hand
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

    def _snapshot(self, audience: Seat | None) -> Message:
        """All ``audience`` may see now, the table's deadline and clock, and the talk kept
        (no view before the first hand is dealt)."""
        table = self.table
        dealt = bool(table.match.hands)
        return {
            "type": "snapshot",
            "v": self.v,
            "view": table_view(table.view(audience), table.hand) if dealt else None,
            "match": self.match_json(),
            "seats": self.seats_json(),
            "deadline": self._deadline_json(),
            "now": millis(self.clock()),
            "talk": self.talk.to_json(),
        }

    def _publish_seat(self, seat: Seat, connected: bool) -> list[Outgoing]:
        """The numbered ``seat`` message: who plays ``seat`` now, and if it is connected."""
        (event,) = self.table.note_seat(seat)
        self.presence.told(seat, connected, self.clock())
        label = self.seating.label(seat)
        deadline = self._deadline_json()
        out = self._publish_each(
            event.v,
            lambda _: {
                "type": "seat",
                "v": event.v,
                "seat": seat.name,
                "player": label,
                "connected": connected,
                "deadline": deadline,
            },
        )
        self._journal(StepKind.SEAT, seat)
        return out

    def _publish(
        self,
        events: Sequence[Event],
        before: Hand | None = None,
        claimed: Mapping[Seat, CardSet] | None = None,
        *,
        timeout: bool = False,
    ) -> list[Outgoing]:
        """The messages of ``events``, numbered and kept, each with the table's deadline once
        they are applied. ``before`` is a copy of the hand before them when they hold several
        actions (a claim): each event's view is then that of the hand just after its action.
        ``claimed``: the claimant of an accepted claim and the cards it held, which the
        ``hand-over`` shows face up (Sawa), once every card is played. ``timeout`` marks the
        actions as decided for a human whose time ran out."""
        out: list[Outgoing] = []
        timed: Message = {"deadline": self._deadline_json()}
        acted = timed | {"timeout": True} if timeout else timed
        for event in events:
            match event.kind:
                case EventKind.ACTION:
                    assert event.action is not None
                    hand = self.table.hand
                    if before is not None:
                        before.apply(event.action)
                        hand = before
                    build = event_message(hand, event)
                    out.extend(self._publish_each(event.v, _with(build, acted)))
                case EventKind.HAND_OVER:
                    hand = self.table.hand
                    revealed = self.table.revealed_fair(self.table.hand_number)
                    extra: Message = {
                        "match": self.match_json(),
                        "sheet": sheet_json(explain(hand.result(), hand.rules)),
                        "fair": None
                        if revealed is None
                        else revealed.to_json(self.table.hand_number),
                    }
                    for seat, cards in (claimed or {}).items():
                        order = claim_order(cards, hand.contract.trump if hand.contract else None)
                        extra["claimed"] = {"seat": seat.name, "cards": [c.text for c in order]}
                    over = view_message("hand-over", event.v, hand, extra | timed)
                    out.extend(self._publish_each(event.v, over))
                case EventKind.DEAL:
                    extra = {"match": self.match_json()} | timed
                    deal = view_message("deal", event.v, self.table.hand, extra)
                    out.extend(self._publish_each(event.v, deal))
                    self._restart_history()
                case EventKind.UNDO:  # a snapshot that supersedes the history
                    out.extend(self._publish_each(event.v, self._snapshot))
                    self._restart_history()
                case EventKind.SEAT | EventKind.SAID:  # told by _publish_seat and _say
                    raise AssertionError("a seat or said event is published with its message")
                case never:
                    assert_never(never)
        return out

    def _restart_history(self) -> None:
        """Forget the messages before the last one (a ``deal`` or an undo's snapshot): they
        speak of cards of another hand, or of cards taken back into a hand, which a seat may
        not know now; a ``resync`` from before answers a snapshot."""
        last = self._history[-1]
        self._history.clear()
        self._history.append(last)

    def _publish_each(self, v: int, build: Callable[[Seat | None], Message]) -> list[Outgoing]:
        """The message numbered ``v`` (its event's) in each audience's version: kept for
        resync, and addressed to every open connection."""
        connections = self.seating.connections
        messages = {seat: build(seat) for seat in {c.seat for c in connections}}
        self._history.append((v, {seat: json.dumps(m) for seat, m in messages.items()}))
        return [(c, messages[c.seat]) for c in connections]


# ---------------------------------------------------------------------- inside


class _Secrets:
    """The secrets a table's fair deals draw: fresh ones from :mod:`secrets`, each taken once
    by the journal to be stored with its step; or, while a stored table is brought back, the
    ones that were stored (then drawing one that was not is a
    :class:`~baloot.server.journal.JournalError`)."""

    def __init__(
        self,
        secret_bytes: Callable[[int], bytes] = secrets.token_bytes,
        kept: Sequence[str] | None = None,
    ) -> None:
        self._secret_bytes = secret_bytes
        self._drawn: list[bytes] = []
        self._kept: list[bytes] | None = None
        self.keep(kept)

    def keep(self, kept: Sequence[str] | None) -> None:
        """Draw ``kept`` (lowercase hex) from now on, in order, and nothing else; None: fresh
        secrets again."""
        if kept is None:
            self._kept = None
            return
        try:
            self._kept = [read_secret(text, "a kept secret") for text in kept]
        except FairError as error:
            raise JournalError(str(error)) from None

    def draw(self) -> bytes:
        """A secret for the next hand."""
        if self._kept is None:
            secret = self._secret_bytes(SECRET_BYTES)
            self._drawn.append(secret)
            return secret
        if not self._kept:
            raise JournalError("a hand's secret was drawn where none was kept")
        return self._kept.pop(0)

    def check_all_used(self, where: str) -> None:
        """Every kept secret was drawn (else ``where`` kept one that no hand drew)."""
        if self._kept:
            raise JournalError(f"{where} keeps a secret that no hand drew")

    def take(self) -> str | None:
        """The secret drawn since the last call (lowercase hex), for the journal."""
        drawn, self._drawn = self._drawn, []
        assert len(drawn) <= 1, "one step ends one hand at most"
        return drawn[0].hex() if drawn else None


def _seat(connection: Connection, id_: str, refusal: str = "a spectator may not act") -> Seat:
    """The connection's seat; a spectator may not decide (``refusal`` says so)."""
    if connection.seat is None:
        raise Refused(id_, RejectCode.SPECTATOR, refusal)
    return connection.seat


def _hand_of(table: Table) -> int:
    """The number of the hand in play, or of the first before it is dealt."""
    return max(table.hand_number, 1)


def _by_bot(step: Step, action: str) -> bool:
    """Whether ``action`` of the stored ``step`` was a bot's decision: every action of a bot's
    step, and of a claim every one but the claimant's (the others' stand-ins and bots)."""
    if step.kind is StepKind.CLAIM:
        return Action.parse(action).seat != step.seat
    return step.kind is StepKind.BOT


Build = Callable[[Seat | None], Message]


def _with(build: Build, extra: Message) -> Build:
    """``build``, its every version with ``extra`` added."""
    return lambda audience: build(audience) | extra


def _engine(id_: str, call: Callable[[], T]) -> T:
    """``call``, its refusal by the table as a ``reject`` with the engine's reason."""
    try:
        return call()
    except IllegalActionError as error:
        raise Refused.illegal(id_, error) from None


def _hint_message(connection: Connection, id_: str, hint: Hint) -> list[Outgoing]:
    """The ``hint`` message answering the client message ``id_``."""
    return [(connection, {"type": "hint", "id": id_, **hint.to_json()})]
