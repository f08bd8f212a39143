"""The daily duplicate as the store keeps it: each day's secret, and each player's play of each
deal, one row that its actions grow (``docs/daily.md``).

A play is made once (``ON CONFLICT DO NOTHING`` on the day, deal and player: a second start
finds the first), and its actions are written only over the number it had when they were
read (:meth:`Daily.daily_advance`), so that two requests of one player at once never play a
hand twice.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

from baloot.records.fair import commitment_of
from baloot.server.transactions import Transactions

#: The schema version of the daily duplicate (the eighth of ``storage.MIGRATIONS``).
DAILY_SCHEMA: Final = (
    """CREATE TABLE daily_days (
        day TEXT PRIMARY KEY,
        secret TEXT NOT NULL,
        commitment TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL
    )""",
    """CREATE TABLE daily_plays (
        day TEXT NOT NULL REFERENCES daily_days (day),
        deal INTEGER NOT NULL,
        player_id TEXT NOT NULL REFERENCES players (id),
        instance INTEGER NOT NULL,
        moves TEXT NOT NULL,
        steps INTEGER NOT NULL,
        score INTEGER,
        contract TEXT,
        started DOUBLE PRECISION NOT NULL,
        ended DOUBLE PRECISION,
        PRIMARY KEY (day, deal, player_id)
    )""",
    "CREATE INDEX daily_plays_player ON daily_plays (player_id, day)",
)


@dataclass(frozen=True, slots=True)
class Play:
    """One player's play of one deal: its instance, its actions so far, and once the hand is
    over South's team's score less the other's and the contract (as JSON, None for none)."""

    day: str
    deal: int
    player_id: str
    instance: int
    moves: tuple[str, ...]
    score: int | None
    contract: Any


@dataclass(frozen=True, slots=True)
class Played:
    """A finished play as the field sees it: who, which deal and instance, what it scored."""

    player_id: str
    name: str
    day: str
    deal: int
    instance: int
    score: int
    contract: Any


_PLAY = "SELECT day, deal, player_id, instance, moves, score, contract FROM daily_plays"
_PLAYED = (
    "SELECT p.player_id, a.name, p.day, p.deal, p.instance, p.score, p.contract"
    " FROM daily_plays p JOIN players a ON a.id = p.player_id"
    " WHERE p.score IS NOT NULL AND a.deleted IS NULL"
)


class Daily(Transactions):
    """The days and plays of the daily duplicate (a part of the Store)."""

    def daily_day(self, day: str, secret: bytes, when: float) -> tuple[bytes, str]:
        """The secret and commitment of ``day``: ``secret`` if the day is new, else the one
        it was given first."""
        with self._transaction() as run:
            run(
                "INSERT INTO daily_days (day, secret, commitment, created) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (day) DO NOTHING",
                (day, secret.hex(), commitment_of(secret), when),
            )
            rows = run("SELECT secret, commitment FROM daily_days WHERE day = ?", (day,))
        return bytes.fromhex(str(rows[0][0])), str(rows[0][1])

    def daily_known(self, day: str) -> tuple[bytes, str] | None:
        """The secret and commitment of ``day``, None for a day nobody asked for."""
        with self._transaction() as run:
            rows = run("SELECT secret, commitment FROM daily_days WHERE day = ?", (day,))
        return None if not rows else (bytes.fromhex(str(rows[0][0])), str(rows[0][1]))

    def daily_start(self, day: str, deal: int, player_id: str, instance: int, when: float) -> Play:
        """The player's play of ``deal``: started now at ``instance``, or the one they began."""
        with self._transaction() as run:
            run(
                "INSERT INTO daily_plays (day, deal, player_id, instance, moves, steps, started)"
                " VALUES (?, ?, ?, ?, '[]', 0, ?) ON CONFLICT (day, deal, player_id) DO NOTHING",
                (day, deal, player_id, instance, when),
            )
            rows = run(
                f"{_PLAY} WHERE day = ? AND deal = ? AND player_id = ?", (day, deal, player_id)
            )
        return _play(rows[0])

    def daily_play(self, day: str, deal: int, player_id: str) -> Play | None:
        """The player's play of ``deal`` on ``day``, None if they never started it."""
        with self._transaction() as run:
            rows = run(
                f"{_PLAY} WHERE day = ? AND deal = ? AND player_id = ?", (day, deal, player_id)
            )
        return _play(rows[0]) if rows else None

    def daily_plays_of(self, day: str, player_id: str) -> list[Play]:
        """The player's plays of ``day``, by deal."""
        with self._transaction() as run:
            rows = run(f"{_PLAY} WHERE day = ? AND player_id = ? ORDER BY deal", (day, player_id))
        return [_play(row) for row in rows]

    def daily_advance(
        self,
        play: Play,
        moves: list[str],
        score: int | None,
        contract: Any,
        when: float,
    ) -> bool:
        """Write ``moves`` as the play's actions (and its ``score`` and ``contract`` once the
        hand is over), if nobody wrote it since ``play`` was read; whether it was written."""
        ended = None if score is None else when
        with self._transaction() as run:
            written = run(
                "UPDATE daily_plays SET moves = ?, steps = ?, score = ?, contract = ?, ended = ?"
                " WHERE day = ? AND deal = ? AND player_id = ? AND steps = ? AND score IS NULL"
                " RETURNING deal",
                (
                    json.dumps(moves),
                    len(moves),
                    score,
                    None if contract is None else json.dumps(contract),
                    ended,
                    play.day,
                    play.deal,
                    play.player_id,
                    len(play.moves),
                ),
            )
        return bool(written)

    def daily_field(self, day: str, deal: int | None = None) -> list[Played]:
        """The finished plays of ``day`` (of ``deal`` only, when given), by deal and name."""
        where = " AND p.day = ?" if deal is None else " AND p.day = ? AND p.deal = ?"
        parameters = (day,) if deal is None else (day, deal)
        with self._transaction() as run:
            rows = run(f"{_PLAYED}{where} ORDER BY p.deal, a.name", parameters)
        return [_played(row) for row in rows]

    def daily_before(self, day: str) -> list[Played]:
        """The finished plays of every day before ``day``, by day and deal (the series')."""
        with self._transaction() as run:
            rows = run(f"{_PLAYED} AND p.day < ? ORDER BY p.day, p.deal, a.name", (day,))
        return [_played(row) for row in rows]

    def daily_month(self, month: str) -> list[Played]:
        """The finished plays of the days of ``month`` (``YYYY-MM``), by day and deal."""
        with self._transaction() as run:
            rows = run(
                f"{_PLAYED} AND p.day >= ? AND p.day <= ? ORDER BY p.day, p.deal, a.name",
                (f"{month}-01", f"{month}-31"),
            )
        return [_played(row) for row in rows]


def _play(row: tuple[Any, ...]) -> Play:
    day, deal, player, instance, moves, score, contract = row
    return Play(
        str(day),
        int(deal),
        str(player),
        int(instance),
        tuple(json.loads(moves)),
        None if score is None else int(score),
        None if contract is None else json.loads(contract),
    )


def _played(row: tuple[Any, ...]) -> Played:
    player, name, day, deal, instance, score, contract = row
    return Played(
        str(player),
        str(name),
        str(day),
        int(deal),
        int(instance),
        int(score),
        None if contract is None else json.loads(contract),
    )
