"""The collusion screen's runs as the store keeps them, and the operators' reviews of the
pairs they list (``docs/integrity.md``).

``baloot screen --keep`` keeps a run: when it started and ended, the population (matches,
hands, blind leads, the distribution of the pairs' accuracies), the thresholds and budget it
used (``body``, JSON), and each pair's figures, numbered from 1 in the order the operator page
shows them (the pairs listed first). The operator page reads the latest run; it never runs the
screen itself. A review is kept for the pair (its two accounts), with the run it was read
from, who marked it, when, and a note: a later run that lists the pair again shows it.

The pairs of the :data:`KEPT_RUNS` newest runs are kept; an older run keeps its row (its
time, population and reviews), not its pairs.

>>> from baloot.server.storage import open_store
>>> store = open_store(":memory:")
>>> a, b = (store.register(name, "$argon2id$...", when=1.0) for name in ("Saad", "Nada"))
>>> pair = KeptPair((a.id, b.id), matches=3, hands=310, decisions=400, hits=390,
...     others=0.55, z=12.0, listed=True)
>>> run = store.keep_screen(1000.0, 1060.0, {"population": {"pairs": 1}}, [pair])
>>> kept = store.latest_screen()
>>> kept.id == run, kept.finished, kept.body
(True, 1060.0, {'population': {'pairs': 1}})
>>> [(row.n, row.names, row.pair.listed) for row in store.screen_pairs(run, 10)]
[(1, ('Saad', 'Nada'), True)]
>>> store.review_pair(run, 1, a.id, "seen their matches: a strong pair", when=1100.0)
Review(run_id=..., by='Saad', at=1100.0, note='seen their matches: a strong pair')
>>> [review.note for review in store.screen_reviews(run)[(a.id, b.id)]]
['seen their matches: a strong pair']
>>> store.close()
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from baloot.server.transactions import Transactions, dumps

#: The schema version of the screen's runs and reviews (the tenth of ``storage.MIGRATIONS``).
SCREEN_SCHEMA: Final = (
    """CREATE TABLE screen_runs (
        id TEXT PRIMARY KEY,
        started DOUBLE PRECISION NOT NULL,
        finished DOUBLE PRECISION NOT NULL,
        body TEXT NOT NULL
    )""",
    "CREATE INDEX screen_runs_finished ON screen_runs (finished)",
    """CREATE TABLE screen_pairs (
        run_id TEXT NOT NULL REFERENCES screen_runs (id),
        n INTEGER NOT NULL,
        first_id TEXT NOT NULL REFERENCES players (id),
        second_id TEXT NOT NULL REFERENCES players (id),
        matches INTEGER NOT NULL,
        hands INTEGER NOT NULL,
        decisions INTEGER NOT NULL,
        hits INTEGER NOT NULL,
        others DOUBLE PRECISION NOT NULL,
        z DOUBLE PRECISION,
        listed INTEGER NOT NULL,
        PRIMARY KEY (run_id, n)
    )""",
    """CREATE TABLE screen_reviews (
        first_id TEXT NOT NULL REFERENCES players (id),
        second_id TEXT NOT NULL REFERENCES players (id),
        run_id TEXT NOT NULL REFERENCES screen_runs (id),
        reviewer_id TEXT NOT NULL REFERENCES players (id),
        note TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL
    )""",
    "CREATE INDEX screen_reviews_pair ON screen_reviews (first_id, second_id, at)",
)

#: The newest runs whose pairs are kept.
KEPT_RUNS: Final = 30


@dataclass(frozen=True)
class KeptPair:
    """One pair's figures in a run: its two accounts' ids (sorted), the matches it played
    together, its hands with a counted lead, its counted leads and those that found a best
    card, the other pairs' accuracy, its z-score against it (None when it has none: the
    others found the best card always or never) and whether it is listed."""

    players: tuple[str, str]
    matches: int
    hands: int
    decisions: int
    hits: int
    others: float
    z: float | None
    listed: bool


@dataclass(frozen=True)
class PairRow:
    """A kept pair as read back: its number in the run, its figures, and its accounts'
    names ('' for a deleted account)."""

    n: int
    pair: KeptPair
    names: tuple[str, str]


@dataclass(frozen=True)
class ScreenRun:
    """A kept run: its id, when it started and ended, and its population, thresholds and
    budget (JSON)."""

    id: str
    started: float
    finished: float
    body: dict[str, Any]


@dataclass(frozen=True)
class Review:
    """An operator's mark on a listed pair: the run it was read from, who (their name, ''
    once deleted), when, and the note."""

    run_id: str
    by: str
    at: float
    note: str


_PAIRS = (
    "SELECT s.n, s.first_id, s.second_id, s.matches, s.hands, s.decisions, s.hits, s.others,"
    " s.z, s.listed, f.name, g.name FROM screen_pairs s"
    " JOIN players f ON f.id = s.first_id JOIN players g ON g.id = s.second_id"
    " WHERE s.run_id = ?"
)


class ScreenRuns(Transactions):
    """The screen's kept runs and the operators' reviews (a part of the Store)."""

    def keep_screen(
        self, started: float, finished: float, body: dict[str, Any], pairs: Sequence[KeptPair]
    ) -> str:
        """Keep a run of the screen (its ``pairs`` numbered from 1 in their order), and drop
        the pairs of the runs older than the :data:`KEPT_RUNS` newest; the run's id."""
        run_id = secrets.token_urlsafe(9)
        with self._transaction() as run:
            run(
                "INSERT INTO screen_runs (id, started, finished, body) VALUES (?, ?, ?, ?)",
                (run_id, started, finished, dumps(body)),
            )
            run.many(
                "INSERT INTO screen_pairs (run_id, n, first_id, second_id, matches, hands,"
                " decisions, hits, others, z, listed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (_row(run_id, n, pair) for n, pair in enumerate(pairs, 1)),
            )
            run(
                "DELETE FROM screen_pairs WHERE run_id NOT IN (SELECT id FROM screen_runs"
                " ORDER BY finished DESC, id LIMIT ?)",
                (KEPT_RUNS,),
            )
        return run_id

    def latest_screen(self) -> ScreenRun | None:
        """The run that ended last, None before the first."""
        with self._transaction() as run:
            rows = run(
                "SELECT id, started, finished, body FROM screen_runs"
                " ORDER BY finished DESC, id LIMIT 1"
            )
        if not rows:
            return None
        id_, started, finished, body = rows[0]
        return ScreenRun(str(id_), float(started), float(finished), dict(json.loads(body)))

    def screen_pairs(self, run_id: str, limit: int) -> list[PairRow]:
        """The first ``limit`` pairs of the run, by number (none once its pairs are dropped)."""
        with self._transaction() as run:
            rows = run(f"{_PAIRS} ORDER BY s.n LIMIT ?", (run_id, limit))
        return [_pair_row(row) for row in rows]

    def screen_pair(self, run_id: str, n: int) -> PairRow | None:
        """Pair ``n`` of the run, None when the run has no such pair (or no pairs kept)."""
        with self._transaction() as run:
            rows = run(f"{_PAIRS} AND s.n = ?", (run_id, n))
        return _pair_row(rows[0]) if rows else None

    def review_pair(
        self, run_id: str, n: int, reviewer_id: str, note: str, when: float
    ) -> Review | None:
        """Mark pair ``n`` of the run reviewed by ``reviewer_id`` at ``when``, with ``note``;
        the review, None when the run has no such pair."""
        with self._transaction() as run:
            made = run(
                "INSERT INTO screen_reviews (first_id, second_id, run_id, reviewer_id, note, at)"
                " SELECT first_id, second_id, run_id, ?, ?, ? FROM screen_pairs"
                " WHERE run_id = ? AND n = ? RETURNING run_id",
                (reviewer_id, note, when, run_id, n),
            )
            if not made:
                return None
            name = run("SELECT name FROM players WHERE id = ?", (reviewer_id,))
        return Review(run_id, str(name[0][0]) if name else "", when, note)

    def screen_reviews(self, run_id: str) -> dict[tuple[str, str], list[Review]]:
        """The reviews of each pair the run kept (whichever run they were read from), the
        newest first; a pair never reviewed is absent."""
        with self._transaction() as run:
            rows = run(
                "SELECT r.first_id, r.second_id, r.run_id, p.name, r.at, r.note"
                " FROM screen_reviews r JOIN players p ON p.id = r.reviewer_id"
                " WHERE EXISTS (SELECT 1 FROM screen_pairs s WHERE s.run_id = ?"
                " AND s.first_id = r.first_id AND s.second_id = r.second_id)"
                " ORDER BY r.at DESC",
                (run_id,),
            )
        found: dict[tuple[str, str], list[Review]] = {}
        for first, second, read_in, by, at, note in rows:
            review = Review(str(read_in), str(by), float(at), str(note))
            found.setdefault((str(first), str(second)), []).append(review)
        return found


def _row(run_id: str, n: int, pair: KeptPair) -> tuple[Any, ...]:
    """A kept pair's row of ``screen_pairs``, its number ``n`` in the run ``run_id``."""
    first, second = pair.players
    return (
        run_id,
        n,
        first,
        second,
        pair.matches,
        pair.hands,
        pair.decisions,
        pair.hits,
        pair.others,
        pair.z,
        int(pair.listed),
    )


def _pair_row(row: Sequence[Any]) -> PairRow:
    n, first, second, matches, hands, decisions, hits, others, z, listed, one, two = row
    pair = KeptPair(
        (str(first), str(second)),
        int(matches),
        int(hands),
        int(decisions),
        int(hits),
        float(others),
        None if z is None else float(z),
        bool(listed),
    )
    return PairRow(int(n), pair, (str(one), str(two)))
