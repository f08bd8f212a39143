"""What a table's storage keeps: how the table was made, and every step it took since.

A table in play is its :class:`TableConfig` (who sits where, the rules, the seed that deals
its decks) and the list of its :class:`Step` values, in order. Replaying the steps on a table
made from the config gives back the same table, the same remembered client ids and the same
``v``: that is how a server restart resumes every table in play. Steps hold decisions as
they were applied (a bot's included), never as a bot would choose them again.

>>> step = Step(StepKind.ACT, v=13, seat=Seat.S, id="c7", actions=("S play Jd",))
>>> Step.from_json(step.to_json()) == step
True
>>> step.to_json()
{'kind': 'act', 'v': 13, 'seat': 'S', 'id': 'c7', 'actions': ['S play Jd']}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from baloot.core.seats import Seat


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
    DEAL = "deal"
    """The next hand was dealt without waiting any longer."""
    UNDO = "undo"
    """The seat's last decision and the bot actions after it were taken back."""
    SEAT = "seat"
    """A numbered ``seat`` message (connected, left, played for): it changes only ``v``."""


@dataclass(frozen=True, slots=True)
class Step:
    """One change of a table: its kind, the table's ``v`` after it, the seat and client
    ``id`` behind it (if any), and the actions applied, in record notation."""

    kind: StepKind
    v: int
    seat: Seat | None = None
    id: str | None = None
    actions: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The step as a JSON object (what the storage writes)."""
        return {
            "kind": self.kind.value,
            "v": self.v,
            "seat": None if self.seat is None else self.seat.name,
            "id": self.id,
            "actions": list(self.actions),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Step:
        """A step as :meth:`to_json` wrote it."""
        seat = data.get("seat")
        return cls(
            StepKind(data["kind"]),
            int(data["v"]),
            None if seat is None else Seat[seat],
            data.get("id"),
            tuple(data.get("actions", ())),
        )


@dataclass(frozen=True, slots=True)
class TableConfig:
    """How a table was made: everything needed to make it again.

    ``players`` maps each seat letter to its player label (a human's display name, or
    ``bot:NAME``), ``humans`` lists the human seats, ``rules`` is the record's ``rules``
    value, ``tokens`` maps each human seat to the SHA-256 digest of its token (the tokens
    themselves are never kept), ``timer`` is the turn timer in seconds (None: no timer) and
    ``created`` a Unix time.

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
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableConfig:
        """A config as :meth:`to_json` wrote it."""
        return cls(
            data["id"],
            dict(data["players"]),
            tuple(data["humans"]),
            data["rules"],
            int(data["seed"]),
            data.get("timer"),
            bool(data.get("public", False)),
            dict(data["tokens"]),
            float(data["created"]),
            dict(data.get("extra", {})),
        )
