"""The ratings as the store keeps them: each account's rating per preset, every change of
it, rated in the transaction that ends a match (``docs/ratings.md``).

:meth:`Ratings._rate_ending` and :meth:`Ratings._rate_idle` are called by the store where
a table leaves play (``finish``, ``close_table``, ``close_idle``), in their transaction, and
rate only a table still in play: a match is rated once, whichever node ends it and however
often (on PostgreSQL the table's row is locked first, so two nodes ending it at once rate it
once). The ratings of a
match's accounts are locked too, in the order of their ids, so that two matches of one player
ending at once on two nodes rate one after the other.

:meth:`Ratings.recompute` rates every stored match again, in the order they ended, from
nothing: what ``baloot ratings recompute`` compares with the ratings kept.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

from baloot.server.journal import JournalError, Step, TableConfig
from baloot.server.players.ratings import START, Plan, Skill, plan
from baloot.server.transactions import Run, Transactions, read_json

#: The schema version that keeps the ratings (the sixth of ``storage.MIGRATIONS``): each
#: account's rating per rules preset, and every change of it, one per rated match and player.
RATINGS_SCHEMA: Final = (
    """CREATE TABLE ratings (
        player_id TEXT NOT NULL REFERENCES players (id),
        preset TEXT NOT NULL,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        matches INTEGER NOT NULL,
        PRIMARY KEY (player_id, preset)
    )""",
    """CREATE TABLE rating_changes (
        table_id TEXT NOT NULL REFERENCES tables (id),
        player_id TEXT NOT NULL REFERENCES players (id),
        preset TEXT NOT NULL,
        before_mu DOUBLE PRECISION NOT NULL,
        before_sigma DOUBLE PRECISION NOT NULL,
        before_matches INTEGER NOT NULL,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        matches INTEGER NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (table_id, player_id)
    )""",
    "CREATE INDEX rating_changes_player ON rating_changes (player_id, at)",
)
#: How close two ratings must be for :meth:`Ratings.recompute` to call them equal.
SAME: Final = 1e-9


@dataclass(frozen=True, slots=True)
class Change:
    """One rated match of one player: the table, the preset, the rating before and after,
    when."""

    table_id: str
    player_id: str
    preset: str
    before: Skill
    after: Skill
    at: float


class Ratings(Transactions):
    """The accounts' ratings and their history (a part of the Store)."""

    # -- rating a match as it ends ------------------------------------------------------

    def _rate_ending(
        self, run: Run, table_id: str, closed: bool, summary: dict[str, Any] | None, when: float
    ) -> None:
        """Rate the match of a table that ``finish`` or ``close_table`` ends at ``when``, if
        it is still in play (its row locked first on PostgreSQL): abandoned when ``closed``,
        else won by the ``winner`` of its ``summary`` (none: not rated)."""
        lock = " FOR UPDATE" if self._postgres else ""
        rows = run(f"SELECT status FROM tables WHERE id = ?{lock}", (table_id,))
        if not rows or rows[0][0] != "playing":
            return
        winner = None if closed else (summary or {}).get("winner")
        if closed or isinstance(winner, str):
            self._rate_end(run, table_id, winner, when)

    def _rate_idle(self, run: Run, table_ids: Iterable[str], when: float) -> None:
        """Rate the matches of tables ``close_idle`` closes at ``when`` (their rows locked
        by it) as abandoned."""
        for table_id in table_ids:
            self._rate_end(run, table_id, None, when)

    def _rate_end(self, run: Run, table_id: str, winner: str | None, when: float) -> None:
        """Rate the match of a table leaving play at ``when``: won by ``winner`` (``NS`` or
        ``EW``), or closed unfinished (None); nothing when it is not rated."""
        found = _plan_of(run, table_id, winner)
        if found is None:
            return
        players = found.players
        run.many(
            "INSERT INTO ratings (player_id, preset, mu, sigma, matches) VALUES (?, ?, ?, ?, 0)"
            " ON CONFLICT (player_id, preset) DO NOTHING",
            ((player, found.preset, START.mu, START.sigma) for player in players),
        )
        lock = " FOR UPDATE" if self._postgres else ""
        marks = ", ".join("?" * len(players))
        rows = run(
            "SELECT player_id, mu, sigma, matches FROM ratings"
            f" WHERE preset = ? AND player_id IN ({marks}) ORDER BY player_id{lock}",
            (found.preset, *players),
        )
        skills = {str(p): Skill(float(mu), float(sigma), int(n)) for p, mu, sigma, n in rows}
        changes = [
            Change(table_id, player, found.preset, skills[player], after, when)
            for player, after in sorted(found.rate(skills).items())
        ]
        _keep(run, changes)
        # The rows made only to be locked, of players this match left as they were.
        run(
            f"DELETE FROM ratings WHERE preset = ? AND matches = 0 AND player_id IN ({marks})",
            (found.preset, *players),
        )

    # -- reading ------------------------------------------------------------------------

    def ratings_of(self, player_id: str) -> dict[str, Skill]:
        """The player's rating in each preset it was rated in."""
        with self._transaction() as run:
            rows = run(
                "SELECT preset, mu, sigma, matches FROM ratings WHERE player_id = ?"
                " ORDER BY preset",
                (player_id,),
            )
        return {str(p): Skill(float(mu), float(sigma), int(n)) for p, mu, sigma, n in rows}

    def rating_changes(self, player_id: str) -> list[Change]:
        """Every change of the player's ratings, the oldest first."""
        with self._transaction() as run:
            return _changes(run, " WHERE player_id = ?", (player_id,))

    def leaderboard(
        self, preset: str, least: int, since: float | None, limit: int, offset: int
    ) -> list[tuple[str, Skill]]:
        """The names and ratings of the accounts (never a deleted one) with at least
        ``least`` rated matches in ``preset`` (since ``since``, when given), the highest
        ordinal first."""
        counted = "r.matches"
        parameters: tuple[object, ...] = (least, preset, limit, offset)
        if since is not None:
            counted = (
                "(SELECT COUNT(*) FROM rating_changes c WHERE c.player_id = r.player_id"
                " AND c.preset = r.preset AND c.at >= ?)"
            )
            parameters = (since, *parameters)
        with self._transaction() as run:
            rows = run(
                "SELECT p.name, r.mu, r.sigma, r.matches FROM ratings r"
                " JOIN players p ON p.id = r.player_id"
                f" WHERE {counted} >= ? AND r.preset = ? AND p.deleted IS NULL"
                " ORDER BY r.mu - 3 * r.sigma DESC, p.name LIMIT ? OFFSET ?",
                parameters,
            )
        return [(str(name), Skill(float(mu), float(sigma), int(n))) for name, mu, sigma, n in rows]

    def matches_of(self, player_id: str, limit: int) -> list[dict[str, Any]]:
        """The player's last ``limit`` matches over or closed, the newest first: each one's
        ``id``, ``status``, ``finished``, ``summary``, ``config`` (the players' labels),
        ``seat``, ``accounts`` (seat letter to the account's name, None once deleted) and
        ``record`` (its text, None unless kept)."""
        with self._transaction() as run:
            rows = run(
                "SELECT t.id, t.status, t.finished, t.summary, t.config, t.record, s.seat"
                " FROM seat_players s JOIN tables t ON t.id = s.table_id"
                " WHERE s.player_id = ? AND t.status IN ('over', 'closed')"
                " ORDER BY t.finished DESC, t.id LIMIT ?",
                (player_id, limit),
            )
            ids = [str(row[0]) for row in rows]
            seated: dict[str, dict[str, str | None]] = {id_: {} for id_ in ids}
            if ids:
                marks = ", ".join("?" * len(ids))
                for table_id, seat, name, deleted in run(
                    "SELECT s.table_id, s.seat, p.name, p.deleted FROM seat_players s"
                    f" JOIN players p ON p.id = s.player_id WHERE s.table_id IN ({marks})",
                    ids,
                ):
                    seated[str(table_id)][str(seat)] = None if deleted is not None else str(name)
        return [
            {
                "id": str(id_),
                "status": str(status),
                "finished": finished,
                "summary": None if summary is None else read_json(summary),
                "players": read_json(config, "players") or {},
                "record": record,
                "seat": str(seat),
                "accounts": seated[str(id_)],
            }
            for id_, status, finished, summary, config, record, seat in rows
        ]

    def rated_games(self, player_id: str, limit: int) -> list[tuple[str, str]]:
        """The record and the player's seat of their last ``limit`` rated matches that keep
        a record, the newest first: what a profile's statistics are read from."""
        with self._transaction() as run:
            rows = run(
                "SELECT t.record, s.seat FROM rating_changes c"
                " JOIN tables t ON t.id = c.table_id"
                " JOIN seat_players s ON s.table_id = c.table_id AND s.player_id = c.player_id"
                " WHERE c.player_id = ? AND t.record IS NOT NULL"
                " ORDER BY c.at DESC, c.table_id LIMIT ?",
                (player_id, limit),
            )
        return [(str(record), str(seat)) for record, seat in rows]

    # -- recomputing ----------------------------------------------------------------------

    def recompute(self) -> tuple[list[Change], bool]:
        """Every stored match rated again from nothing, in the order they ended (their
        ``finished`` time, then id), and whether the result is the ratings kept."""
        with self._transaction() as run:
            changes = _recomputed(run)
            kept = run("SELECT player_id, preset, mu, sigma, matches FROM ratings")
        final: dict[tuple[str, str], Skill] = {}
        for change in changes:
            final[change.player_id, change.preset] = change.after
        stored = {
            (str(p), str(preset)): Skill(float(mu), float(sigma), int(n))
            for p, preset, mu, sigma, n in kept
        }
        return changes, _same(final, stored)

    def replace_ratings(self, changes: list[Change]) -> None:
        """Keep ``changes`` (as :meth:`recompute` made them) as the only history, and the
        ratings they end at, in one transaction."""
        with self._transaction() as run:
            run("DELETE FROM rating_changes")
            run("DELETE FROM ratings")
            final: dict[tuple[str, str], Skill] = {}
            for change in changes:
                final[change.player_id, change.preset] = change.after
            run.many(
                "INSERT INTO ratings (player_id, preset, mu, sigma, matches)"
                " VALUES (?, ?, ?, ?, ?)",
                ((p, preset, s.mu, s.sigma, s.matches) for (p, preset), s in final.items()),
            )
            _record(run, changes)


def _plan_of(run: Run, table_id: str, winner: str | None) -> Plan | None:
    """How the table's match is rated, from its config, its seats' accounts and (closed
    unfinished) its journal; None when it is not, or its rows cannot be read."""
    rows = run("SELECT config FROM tables WHERE id = ?", (table_id,))
    try:
        config = TableConfig.from_json(json.loads(rows[0][0]))
    except (JournalError, ValueError, RecursionError, IndexError):
        return None
    accounts = {
        str(seat): str(player)
        for seat, player in run(
            "SELECT seat, player_id FROM seat_players WHERE table_id = ?", (table_id,)
        )
    }
    steps: list[Step] | None = None
    if winner is None:
        try:
            steps = [
                Step.from_json(json.loads(body))
                for (body,) in run(
                    "SELECT body FROM steps WHERE table_id = ? ORDER BY n", (table_id,)
                )
            ]
        except (JournalError, ValueError, RecursionError):
            return None
    return plan(config, accounts, winner, steps)


def _keep(run: Run, changes: list[Change]) -> None:
    """Store the ratings after ``changes`` and the changes themselves."""
    run.many(
        "UPDATE ratings SET mu = ?, sigma = ?, matches = ? WHERE player_id = ? AND preset = ?",
        ((c.after.mu, c.after.sigma, c.after.matches, c.player_id, c.preset) for c in changes),
    )
    _record(run, changes)


def _record(run: Run, changes: Iterable[Change]) -> None:
    run.many(
        "INSERT INTO rating_changes (table_id, player_id, preset, before_mu, before_sigma,"
        " before_matches, mu, sigma, matches, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            (
                c.table_id,
                c.player_id,
                c.preset,
                c.before.mu,
                c.before.sigma,
                c.before.matches,
                c.after.mu,
                c.after.sigma,
                c.after.matches,
                c.at,
            )
            for c in changes
        ),
    )


def _changes(run: Run, where: str, parameters: tuple[str, ...]) -> list[Change]:
    rows = run(
        "SELECT table_id, player_id, preset, before_mu, before_sigma, before_matches, mu,"
        f" sigma, matches, at FROM rating_changes{where} ORDER BY at, table_id",
        parameters,
    )
    return [
        Change(
            str(table_id),
            str(player),
            str(preset),
            Skill(float(bmu), float(bsigma), int(bn)),
            Skill(float(mu), float(sigma), int(n)),
            float(at),
        )
        for table_id, player, preset, bmu, bsigma, bn, mu, sigma, n, at in rows
    ]


def _recomputed(run: Run) -> list[Change]:
    """Every ended match rated again, in order, from nothing."""
    skills: dict[tuple[str, str], Skill] = {}
    changes: list[Change] = []
    for table_id, status, summary, finished in run(
        "SELECT id, status, summary, finished FROM tables WHERE status IN ('over', 'closed')"
        " ORDER BY finished, id"
    ):
        winner = read_json(summary, "winner") if status == "over" and summary else None
        if status == "over" and not isinstance(winner, str):
            continue  # a finished match without a winner is never rated
        found = _plan_of(run, str(table_id), winner)
        if found is None:
            continue
        before = {p: skills.get((p, found.preset), START) for p in found.players}
        for player, after in sorted(found.rate(before).items()):
            changes.append(
                Change(str(table_id), player, found.preset, before[player], after, finished)
            )
            skills[player, found.preset] = after
    return changes


def _same(first: dict[tuple[str, str], Skill], second: dict[tuple[str, str], Skill]) -> bool:
    """Whether two sets of ratings are the same, to :data:`SAME`."""
    if first.keys() != second.keys():
        return False
    return all(
        abs(a.mu - b.mu) <= SAME and abs(a.sigma - b.sigma) <= SAME and a.matches == b.matches
        for a, b in ((first[key], second[key]) for key in first)
    )
