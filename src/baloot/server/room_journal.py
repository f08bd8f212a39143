"""What a room's storage keeps of it (:class:`RoomJournal`): each step taken, with the secret
it drew and the ``id`` the seat gave it, to be stored before its messages are sent; and how a
stored table is brought back from its steps.

A step's ``id`` is remembered for its seat, so that a decision sent again (a client that
did not hear its ``ack``) is acknowledged and applied only once, even across a restart.

>>> from baloot.server.seating import seat_table
>>> table = seat_table({}, None, 7)
>>> journal = RoomJournal(table, Seating(table), Talk(), Secrets())
>>> journal.note(StepKind.BOT, None, None, table.play_bot(None))
>>> journal.take_steps()
(0, [Step(kind=<StepKind.BOT: 'bot'>, v=1, seat=None, id=None, actions=('E pass',), ...)])
>>> journal.take_steps()
(1, [])
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence

from baloot.core.actions import Action
from baloot.core.seats import Seat
from baloot.records.fair import SECRET_BYTES, FairError, read_secret
from baloot.server.journal import JournalError, Step, StepKind
from baloot.server.seating import Seating
from baloot.server.talk import Line, Talk
from baloot.table.table import Event, EventKind, Table


class RoomJournal:
    """The steps a room has taken and not yet handed to storage, the ids each seat gave its
    decisions, and the fair deals' secrets (:class:`Secrets`) each step drew."""

    def __init__(self, table: Table, seating: Seating, talk: Talk, drawn: Secrets) -> None:
        self.table = table
        self.seating = seating
        self.talk = talk
        self.secrets = drawn
        self._remembered: dict[Seat, set[str]] = {seat: set() for seat in Seat}
        self._steps: list[Step] = []
        self._taken = 0

    def remembered(self, seat: Seat, id_: str) -> bool:
        """Whether ``seat`` has had a decision of ``id_`` applied already."""
        return id_ in self._remembered[seat]

    def remember(self, seat: Seat, id_: str) -> None:
        """Note that the decision ``id_`` of ``seat`` is applied."""
        self._remembered[seat].add(id_)

    def note(
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
        secret = self.secrets.take()
        given = None if entropy is None else entropy.hex()
        step = Step(kind, self.table.version, seat, id_, actions, secret, given, text)
        self._steps.append(step)

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
        not where taking it again leads). Nothing is sent. A human seat the bot played for
        (its time ran out) and that was not told back since (a ``seat`` step) is still played
        for: at once, until its human comes back."""
        table = self.table
        for number, step in enumerate(steps, self._taken):
            self.secrets.keep([] if step.secret is None else [step.secret])
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
                self.remember(step.seat, step.id)
            if step.v != table.version:
                raise JournalError(
                    f"step {number} has v {step.v}, where the table is at {table.version}"
                )
            self.secrets.check_all_used(f"step {number}")
        self.secrets.keep(None)
        self._taken += len(steps)


class Secrets:
    """The secrets a table's fair deals draw: fresh ones from :mod:`secrets`, each taken once
    by the journal to be stored with its step; or, while a stored table is brought back, the
    ones that were stored (then drawing one that was not is a
    :class:`~baloot.server.journal.JournalError`).

    >>> kept = Secrets(kept=["00" * 32])
    >>> kept.draw() == bytes(32)
    True
    >>> kept.draw()
    Traceback (most recent call last):
    baloot.server.journal.JournalError: a hand's secret was drawn where none was kept
    """

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


def _by_bot(step: Step, action: str) -> bool:
    """Whether ``action`` of the stored ``step`` was a bot's decision: every action of a bot's
    step, and of a claim every one but the claimant's (the others' stand-ins and bots)."""
    if step.kind is StepKind.CLAIM:
        return Action.parse(action).seat != step.seat
    return step.kind is StepKind.BOT
