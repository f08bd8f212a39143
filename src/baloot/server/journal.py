"""What a table's storage keeps: how the table was made, and every step it took since.

A table in play is its :class:`TableConfig` (who sits where, the rules, the seed that deals
its decks) and the list of its :class:`Step` values, in order. Replaying the steps on a table
made from the config gives back the same table, the same remembered client ids and the same
``v``: that is how a server restart resumes every table in play. Steps hold decisions as
they were applied (a bot's included), never as a bot would choose them again.

Storage hands a table back as a :class:`KeptTable`, its rows as they were stored; reading it
checks every row, so that one bad row is one table that cannot be restored (a
:class:`JournalError` naming the row), never a server that cannot start.

>>> step = Step(StepKind.ACT, v=13, seat=Seat.S, id="c7", actions=("S play Jd",))
>>> Step.from_json(step.to_json()) == step
True
>>> step.to_json()
{'kind': 'act', 'v': 13, 'seat': 'S', 'id': 'c7', 'actions': ['S play Jd']}
>>> Step.from_json({"kind": "jump", "v": 1})
Traceback (most recent call last):
...
baloot.server.journal.JournalError: unknown step kind 'jump'
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, TypeGuard, TypeVar

from baloot.core.errors import BalootError
from baloot.core.seats import Seat
from baloot.records.fair import (
    MAX_ENTROPY_BYTES,
    SECRET_BYTES,
    FairError,
    read_entropy,
    read_hex,
    read_secret,
)

T = TypeVar("T")


class JournalError(BalootError):
    """A kept row that is not what this code writes: the table cannot be restored from it."""


class StepKind(Enum):
    """What a step did to the table."""

    ACT = "act"
    """A human seat's action (``id`` is the client's)."""
    BOT = "bot"
    """A bot's action, for a bot seat or for a human it stood in for."""
    CLAIM = "claim"
    """A Sawa: every remaining action of the hand, in order."""
    NEXT = "next"
    """A human seat is ready for the next hand (the hand is dealt once all are)."""
    ENTROPY = "entropy"
    """A human seat's ``entropy`` for the hand not yet dealt (the first is dealt once every
    human seat gave its own)."""
    DEAL = "deal"
    """The next hand was dealt without waiting any longer."""
    UNDO = "undo"
    """The seat's last decision and the bot actions after it were taken back."""
    SEAT = "seat"
    """A numbered ``seat`` message (connected, left, played for): it changes only ``v``."""
    SAY = "say"
    """A line of table talk (``text``; ``id`` is the client's): it changes only ``v``."""


@dataclass(frozen=True, slots=True)
class Step:
    """One change of a table: its kind, the table's ``v`` after it, the seat and client
    ``id`` behind it (if any), the actions applied, in record notation, and the ``text`` of a
    line of table talk. At a table with fair deals, a step that ends a hand keeps the
    ``secret`` drawn for the next (lowercase hex), and a ``next`` or an ``entropy`` the seat's
    ``entropy`` (``docs/table-protocol.md``)."""

    kind: StepKind
    v: int
    seat: Seat | None = None
    id: str | None = None
    actions: tuple[str, ...] = ()
    secret: str | None = None
    entropy: str | None = None
    text: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The step as a JSON object (what the storage writes; the optional keys only when
        set)."""
        out: dict[str, Any] = {
            "kind": self.kind.value,
            "v": self.v,
            "seat": None if self.seat is None else self.seat.name,
            "id": self.id,
            "actions": list(self.actions),
        }
        for key, value in (
            ("secret", self.secret),
            ("entropy", self.entropy),
            ("text", self.text),
        ):
            if value is not None:
                out[key] = value
        return out

    @classmethod
    def from_json(cls, data: object) -> Step:
        """A step as :meth:`to_json` wrote it, checked (a :class:`JournalError`)."""
        data = _object(data, "a step")
        kind = data.get("kind")
        if kind not in {k.value for k in StepKind}:
            raise JournalError(f"unknown step kind {str(kind)[:20]!r}")
        seat = _optional(data, "seat", str)
        if seat is not None and seat not in Seat.__members__:
            raise JournalError(f"unknown seat {seat[:8]!r} in a step")
        actions = _typed(data.get("actions", []), list, "a step's actions")
        return cls(
            StepKind(kind),
            _typed(data.get("v"), int, "a step's v"),
            None if seat is None else Seat[seat],
            _optional(data, "id", str),
            tuple(_typed(action, str, "an action") for action in actions),
            _hex(data, "secret", range(SECRET_BYTES, SECRET_BYTES + 1)),
            _hex(data, "entropy", range(1, MAX_ENTROPY_BYTES + 1)),
            _optional(data, "text", str),
        )


@dataclass(frozen=True, slots=True)
class TableConfig:
    """How a table was made: everything needed to make it again.

    ``players`` maps each seat letter to its player label (a human's display name, or
    ``bot:NAME``), ``humans`` lists the human seats, ``rules`` is the record's ``rules``
    value, ``tokens`` maps each human seat to the SHA-256 digest of its token (the tokens
    themselves are never kept), ``timer`` is the turn timer in seconds (None: no timer) and
    ``created`` a Unix time. ``fair`` is None for a table dealt from its seed, else the
    first hand's secret (``{"secret": HEX}``): never shown to anyone before that hand is over.
    The players' entropy for that hand comes after it, in steps; a config that holds
    ``"entropy": {"S": HEX}`` too is that of a table whose first hand was dealt at once with
    it, when it was made (as tables were before their first hand waited for the players).

    >>> config = TableConfig("t1", {"N": "bot:heuristic", "E": "bot:heuristic",
    ...     "S": "Saad", "W": "bot:heuristic"}, ("S",), "classic", 7, None, False,
    ...     {"S": "ab12"}, 1700000000.0)
    >>> TableConfig.from_json(config.to_json()) == config
    True
    """

    id: str
    players: dict[str, str]
    humans: tuple[str, ...]
    rules: str | dict[str, Any]
    seed: int
    timer: float | None
    public: bool
    tokens: dict[str, str]
    created: float
    extra: dict[str, Any] = field(default_factory=dict)
    fair: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """The config as a JSON object."""
        return {
            "id": self.id,
            "players": dict(self.players),
            "humans": list(self.humans),
            "rules": self.rules,
            "seed": self.seed,
            "timer": self.timer,
            "public": self.public,
            "tokens": dict(self.tokens),
            "created": self.created,
            "extra": dict(self.extra),
            "fair": self.fair,
        }

    @classmethod
    def from_json(cls, data: object) -> TableConfig:
        """A config as :meth:`to_json` wrote it, checked (a :class:`JournalError`)."""
        data = _object(data, "a table's config")
        players = _typed(data.get("players"), dict, "the players")
        if sorted(players) != sorted(Seat.__members__) or not all(
            isinstance(label, str) for label in players.values()
        ):
            raise JournalError("the players are not a label for each of N, E, S, W")
        humans = _typed(data.get("humans"), list, "the human seats")
        if not all(seat in players for seat in humans):
            raise JournalError("the human seats are not seats")
        rules = data.get("rules")
        if not isinstance(rules, str | dict):
            raise JournalError("the rules are neither a preset nor an object")
        timer = data.get("timer")
        if timer is not None and not (_number(timer) and 0 < timer < math.inf):
            raise JournalError("the timer is not a number of seconds")
        tokens = _typed(data.get("tokens"), dict, "the token digests")
        created = data.get("created")
        if not _number(created):
            raise JournalError("the creation time is not a number")
        return cls(
            _typed(data.get("id"), str, "the table's id"),
            dict(players),
            tuple(humans),
            rules,
            _typed(data.get("seed"), int, "the seed"),
            timer,
            _typed(data.get("public", False), bool, "public"),
            {str(seat): str(digest) for seat, digest in tokens.items()},
            float(created),
            dict(_typed(data.get("extra", {}), dict, "extra")),
            _fair_start(data.get("fair")),
        )


@dataclass(frozen=True, slots=True)
class KeptTable:
    """A table in play as storage keeps it: its config and its steps, as stored text.

    >>> kept = KeptTable("t1", "{}", ())
    >>> kept.read()
    Traceback (most recent call last):
    ...
    baloot.server.journal.JournalError: table t1: its config: the players must be an object
    >>> KeptTable("t1", "{}", ('{"kind": "deal", "v": 2}', "[")).steps_read()
    Traceback (most recent call last):
    ...
    baloot.server.journal.JournalError: table t1: step 1 is not JSON
    """

    id: str
    config: str
    steps: tuple[str, ...]

    def read(self) -> tuple[TableConfig, list[Step]]:
        """The config and the steps, each row checked; a :class:`JournalError` names the
        first row that is not what this code writes."""
        config = self._row("its config", self.config, TableConfig.from_json)
        if config.id != self.id:
            raise JournalError(f"table {self.id}: its config is that of {config.id[:20]!r}")
        return config, self.steps_read()

    def steps_read(self) -> list[Step]:
        """The steps, in order, each checked."""
        return [self._row(f"step {n}", body, Step.from_json) for n, body in enumerate(self.steps)]

    def _row(self, what: str, text: str, read: Any) -> Any:
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            raise JournalError(f"table {self.id}: {what} is not JSON") from None
        try:
            return read(data)
        except JournalError as error:
            raise JournalError(f"table {self.id}: {what}: {error}") from None


def _hex(data: Mapping[str, Any], key: str, sizes: range) -> str | None:
    """A step's optional lowercase hex ``key`` of a number of bytes in ``sizes``."""
    value = data.get(key)
    if value is None:
        return None
    try:
        read_hex(value, f"a step's {key}", sizes)
    except FairError as error:
        raise JournalError(str(error)) from None
    return str(value)


def _fair_start(value: object) -> dict[str, Any] | None:
    """The first hand's secret (and the entropy it was dealt with at once, for a table that
    was made so) as a config keeps them, checked (or None)."""
    if value is None:
        return None
    data = _object(value, "fair")
    dealt_with = "entropy" in data
    entropy = _typed(data.get("entropy", {}), dict, "the first hand's entropy")
    try:
        read_secret(data.get("secret"), "the first hand's secret")
        for seat, text in entropy.items():
            if seat not in Seat.__members__:
                raise JournalError(f"unknown seat {str(seat)[:8]!r} in the first hand's entropy")
            read_entropy(text)
    except FairError as error:
        raise JournalError(str(error)) from None
    kept = {"secret": data["secret"]}
    return kept | {"entropy": dict(entropy)} if dealt_with else kept


def _object(data: object, what: str) -> Mapping[str, Any]:
    if not isinstance(data, dict):
        raise JournalError(f"{what} is not an object")
    return data


def _typed(value: object, kind: type[T], what: str) -> T:
    """``value`` if it is a ``kind`` (a bool is no int here), else a :class:`JournalError`."""
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise JournalError(f"{what} must be {_NAMES[kind]}")
    return value


def _optional(data: Mapping[str, Any], key: str, kind: type[T]) -> T | None:
    value = data.get(key)
    return None if value is None else _typed(value, kind, f"a step's {key}")


def _number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


_NAMES: dict[type, str] = {
    int: "an integer",
    str: "text",
    list: "a list",
    dict: "an object",
    bool: "true or false",
}
