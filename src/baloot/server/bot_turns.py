"""The turns a room's bots take (:class:`BotTurns`): decided here, or elsewhere as a task and
played once it is back, by a stand-in when it does not come back, for a human whose time ran
out, and the deals nobody needs to ask for.

A server asks :meth:`BotTurns.waiting_for_bot` and calls :meth:`BotTurns.step_bot` (or sends
:meth:`BotTurns.bot_task` to its deciders and plays it with :meth:`BotTurns.play_decided`
while :meth:`BotTurns.still_asks`); its timers call :meth:`BotTurns.time_out` and
:meth:`BotTurns.deal` when the room's deadline passes.

>>> from baloot.server.seating import seat_table
>>> from baloot.server.deadlines import Timing, Waits
>>> from baloot.server.presence import Presence
>>> from baloot.server.room_journal import Secrets
>>> from baloot.server.talk import Talk
>>> table = seat_table({}, None, 7)
>>> seating = Seating(table)
>>> waits = Waits(table, seating, Timing(), lambda: 0.0, created=0.0)
>>> journal = RoomJournal(table, seating, Talk(), Secrets())
>>> publisher = Publisher("t1", table, seating, waits, Presence(), Talk(), journal)
>>> turns = BotTurns("t1", table, seating, publisher, journal)
>>> turns.waiting_for_bot(), turns.step_bot(), table.hand.actions
(True, [], [Action('E pass')])
"""

from __future__ import annotations

import functools
import random

from baloot.bots.base import make_bot
from baloot.bots.decisions import Decision, DecisionTask
from baloot.bots.levels import ROLES
from baloot.bots.workers import DECIDED_HERE
from baloot.core.seats import Seat
from baloot.server.journal import StepKind
from baloot.server.publishing import Outgoing, Publisher
from baloot.server.room_journal import RoomJournal
from baloot.server.seating import Seating
from baloot.table.players import Bot
from baloot.table.table import Table, WaitKind


class BotTurns:
    """The decisions a table's bots make, each published and noted as a step of its own.

    ``room_id`` seeds the stand-in that decides for a bot whose decision did not come back.
    """

    def __init__(
        self,
        room_id: str,
        table: Table,
        seating: Seating,
        publisher: Publisher,
        journal: RoomJournal,
    ) -> None:
        self.room_id = room_id
        self.table = table
        self.seating = seating
        self.publisher = publisher
        self.journal = journal

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
        out = self.publisher.events(events)
        self.journal.note(StepKind.BOT, seat, None, events)
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
        out = self.publisher.seat(seat, False)
        events = self.table.play_bot(seat, by=self._stand_in)
        out += self.publisher.events(events)
        self.journal.note(StepKind.BOT, seat, None, events)
        self.seating.answering(seat)
        return out + self.publisher.seat(seat, True)

    @functools.cached_property
    def _stand_in(self) -> Bot:
        """The bot that decides for a bot seat whose decision did not come back."""
        return make_bot(ROLES.stand_in, random.Random(f"{self.room_id}:stand-in"))

    def deal(self) -> list[Outgoing]:
        """Deal the next hand now, whoever has not sent ``next`` (the caller's 30 s after
        ``hand-over``), or the first one, whoever has not given their entropy (its ``deal``
        deadline); nothing unless the table waits for that."""
        if self.table.waiting().kind not in (WaitKind.NEXT, WaitKind.DEAL):
            return []
        out = self.publisher.events(self.table.deal())
        self.journal.note(StepKind.DEAL)
        return out

    def deal_for_stand_ins(self) -> list[Outgoing]:
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

    def time_out(self, seat: Seat) -> list[Outgoing]:
        """The human of ``seat`` ran out of time (the room's deadline passed: the turn timer,
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
            out += self.publisher.seat(seat, connected)
        out += self._bot_plays(seat, timeout=True)
        if connected:
            self.seating.back(seat)
            out += self.publisher.seat(seat, True)
        return out

    def _bot_plays(self, seat: Seat | None, timeout: bool = False) -> list[Outgoing]:
        events = self.table.play_bot(seat)
        out = self.publisher.events(events, timeout=timeout)
        self.journal.note(StepKind.BOT, seat, None, events)
        return out + self._programs_status()

    def _programs_status(self) -> list[Outgoing]:
        """A ``seat`` message for each operator's program that has just failed (not
        connected: its stand-in plays) or decided well again (connected)."""
        out: list[Outgoing] = []
        for seat in self.seating.programs_changed():
            out += self.publisher.seat(seat, self.seating.connected(seat))
        return out
