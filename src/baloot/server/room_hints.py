"""The hints a room gives (:class:`Hints`): what the table's best bot would do now, and why,
for the seat to act at a table with one human; made here, or as a task apart from the table
(a hint changes nothing) and answered once it is back.

>>> from baloot.server.room import Room
>>> from baloot.core.seats import Seat
>>> from baloot.table.players import Player
>>> room = Room.create({Seat.S: Player.human("Saad")}, seed=7, room_id="t1")
>>> south, _ = room.connect(room.tokens[Seat.S])
>>> while room.waiting_for_bot():
...     _ = room.step_bot()
>>> [(message["type"], message["action"]) for _, message in room.hints.answer(south, "h1")]
[('hint', 'S pass')]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from baloot.bots.best_hints import BestHints, Hinted, HintTask
from baloot.bots.heuristic import Hint
from baloot.core.actions import Action
from baloot.core.errors import IllegalActionError
from baloot.core.reasons import ReasonCode
from baloot.server.messages import AskHint, Refused
from baloot.server.outgoing import HintGiven
from baloot.server.publishing import Outgoing
from baloot.server.seat_decisions import engine, seat_of
from baloot.server.seating import Connection
from baloot.table.table import Table, WaitKind
from baloot.view.seat_view import SeatView


class HintBot(Protocol):
    """A bot that explains its choice (:class:`~baloot.bots.best_hints.BestHints`)."""

    def explain(self, view: SeatView, legal: Sequence[Action]) -> Hint:
        """The action it picks among ``legal`` in ``view``, and why."""
        ...


class Hints:
    """The hints of one table, given by ``bot``."""

    def __init__(self, table: Table, bot: HintBot) -> None:
        self.table = table
        self.bot = bot

    def answer(self, connection: Connection, id_: str) -> list[Outgoing]:
        """The ``hint`` the hint bot gives the seat of ``connection`` now, made here."""
        view = self._view(connection, id_)
        return _hint_message(connection, id_, self.bot.explain(view, view.legal))

    def task(self, connection: Connection, message: AskHint, seconds: float) -> HintTask | None:
        """The hint ``message`` asks for, as a task to make apart from the table (a hint
        changes nothing) with a clock of ``seconds``: :class:`Refused` when it is refused
        (the room answers it with a ``reject``), None when :meth:`answer` is to make it
        instead (a closed connection, or a hint bot that is not the one a task makes)."""
        if not connection.open:
            return None
        view = self._view(connection, message.id)
        if not isinstance(self.bot, BestHints):
            return None
        return HintTask.of(self.bot, view, view.legal, seconds)

    def hinted(self, connection: Connection, message: AskHint, hinted: Hinted) -> list[Outgoing]:
        """The answer to ``message`` once its :meth:`task` is back: the hint bot moves
        on as if it had given the hint itself."""
        if isinstance(self.bot, BestHints):
            hinted.restore(self.bot)
        if not connection.open:
            return []
        return _hint_message(connection, message.id, hinted.hint)

    def _view(self, connection: Connection, id_: str) -> SeatView:
        """The view of the seat of ``connection`` that asks a hint now, or its refusal."""
        seat = seat_of(connection, id_)
        engine(id_, self.table.check_hint_allowed)
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


def _hint_message(connection: Connection, id_: str, hint: Hint) -> list[Outgoing]:
    """The ``hint`` message answering the client message ``id_``."""
    return [(connection, HintGiven(id_, hint).sent())]
