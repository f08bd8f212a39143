"""The quick match: a queue per rule preset and timer, and the pairing step that seats it.

A player who asks to play now waits in ``queue`` (:mod:`~baloot.server.players.social_schema`)
with their rating for the preset (:func:`rating_of`; a new player counts as
:data:`NEW_RATING`). The pairing step (:func:`pair`, run by :meth:`QuickMatch.claim_matches`)
goes through the waiting players, the longest waiting first: each in turn gathers the others
of the same preset and timer whose ratings are within :func:`allowed_gap` of theirs, closest
first, leaving out anyone a member blocks or is blocked by, and keeping the whole group's
spread within that gap. The gap widens with the first player's wait: :data:`BASE_GAP` at
once, :data:`WIDEN` more every second. Four players make a table; fewer are seated with bots
once the first of them asked for bots or has waited :data:`BOTS_AFTER` seconds. The seats are
drawn at random (``rng``: partners at random, reproducible with a seeded one).

Across nodes, the queue is in the database: the step claims the rows it seats in one
transaction (``FOR UPDATE SKIP LOCKED`` on PostgreSQL; SQLite's one writer), so that two nodes
never seat one player twice; the node that made the match then creates the table (a normal
one, its seats bound to the accounts) and writes each player's table, seat and token into
their row, which they read by polling. A claim whose node died before it wrote its table is
let go after :data:`CLAIM_LIFE` seconds. A waiting player who stops polling for
:data:`STALE_AFTER` seconds leaves the queue.

>>> now = 100.0
>>> waiting = [Waiting(f"p{n}", f"P{n}", "classic", None, 25.0 + n, now - 5, False)
...     for n in range(5)]
>>> [sorted(m.seats.values()) for m in pair(waiting, set(), now, random.Random(1))]
[['p0', 'p1', 'p2', 'p3']]
>>> allowed_gap(0.0), allowed_gap(60.0)
(2.5, 17.5)
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, Final

from baloot.server.players.ratings import START
from baloot.server.transactions import Run, Transactions

#: The rating of a player with none for the preset yet (the ratings' own first mean).
NEW_RATING: Final = START.mu
#: The widest gap between the ratings of one table's players at once, in rating points.
BASE_GAP: Final = 2.5
#: How much the gap widens for every second the first player of a group has waited.
WIDEN: Final = 0.25
#: The seconds after which the server fills a waiting player's empty seats with bots.
BOTS_AFTER: Final = 60.0
#: The seconds without a poll after which a waiting player leaves the queue.
STALE_AFTER: Final = 30.0
#: The seconds after which a claim whose table was never written is let go.
CLAIM_LIFE: Final = 30.0
#: The seconds a seated player's row (their table's link) is kept for them to read.
SEATED_LIFE: Final = 600.0
#: The seats, in the order a drawn order fills them: N and S are partners, E and W.
SEATS: Final = ("N", "E", "S", "W")


@dataclass(frozen=True, slots=True)
class Waiting:
    """A waiting player: their id and name, what they wait for, their rating, since when,
    and whether they asked to be seated with bots now."""

    player_id: str
    name: str
    preset: str
    timer: int | None
    rating: float
    joined: float
    bots: bool


@dataclass(frozen=True, slots=True)
class Match:
    """A table to make: its preset and timer, and the player id of each human seat (the
    seats left out are bots)."""

    preset: str
    timer: int | None
    seats: dict[str, str]
    names: dict[str, str]


@dataclass(frozen=True, slots=True)
class Entry:
    """A player's place in the queue: ``waiting`` since ``since``, or ``seated`` at ``table``
    in ``seat`` with its ``token``."""

    state: str
    since: float
    preset: str
    timer: int | None
    table: str | None = None
    seat: str | None = None
    token: str | None = None


def allowed_gap(wait: float) -> float:
    """The widest rating spread of a group whose first player has waited ``wait`` seconds."""
    return BASE_GAP + WIDEN * max(0.0, wait)


def pair(
    waiting: Sequence[Waiting], blocks: Collection[frozenset[str]], now: float, rng: random.Random
) -> list[Match]:
    """The tables the waiting players make at ``now`` (see the module); ``blocks`` are the
    pairs of player ids of which one blocks the other, never seated together."""
    pool = sorted(waiting, key=lambda w: (w.joined, w.player_id))
    taken: set[str] = set()
    matches = []
    for first in pool:
        if first.player_id in taken:
            continue
        gap = allowed_gap(now - first.joined)
        near = sorted(
            (
                w
                for w in pool
                if w.player_id not in taken
                and w is not first
                and (w.preset, w.timer) == (first.preset, first.timer)
                and abs(w.rating - first.rating) <= gap
            ),
            key=lambda w: (abs(w.rating - first.rating), w.joined, w.player_id),
        )
        group = [first]
        for other in near:
            if len(group) == len(SEATS):
                break
            ratings = [member.rating for member in group] + [other.rating]
            if max(ratings) - min(ratings) > gap:
                continue
            if any(frozenset((other.player_id, m.player_id)) in blocks for m in group):
                continue
            group.append(other)
        if len(group) < len(SEATS) and not (first.bots or now - first.joined >= BOTS_AFTER):
            continue
        seats = list(SEATS)
        rng.shuffle(seats)
        taken.update(member.player_id for member in group)
        matches.append(
            Match(
                first.preset,
                first.timer,
                {seat: member.player_id for seat, member in zip(seats, group, strict=False)},
                {seat: member.name for seat, member in zip(seats, group, strict=False)},
            )
        )
    return matches


def rating_of(run: Run, player_id: str, preset: str) -> float | None:
    """The player's rating (its mean) for ``preset``
    (:mod:`~baloot.server.players.rating_store`), None for a player not rated yet."""
    rows = run("SELECT mu FROM ratings WHERE player_id = ? AND preset = ?", (player_id, preset))
    return float(rows[0][0]) if rows else None


class QuickMatch(Transactions):
    """The quick match's queue (a part of the Store)."""

    def join_queue(self, me: str, preset: str, timer: int | None, when: float) -> Entry:
        """Wait for a table of ``preset`` and ``timer``; already waiting for it, the place
        is kept, else any earlier place or table link is given up for this one."""
        with self._transaction() as run:
            entry = _entry(run, me)
            if (
                entry is not None
                and entry.state == "waiting"
                and (
                    entry.preset,
                    entry.timer,
                )
                == (preset, timer)
            ):
                run("UPDATE queue SET seen = ? WHERE player_id = ?", (when, me))
                return entry
            rating = rating_of(run, me, preset)
            run("DELETE FROM queue WHERE player_id = ?", (me,))
            run(
                "INSERT INTO queue (player_id, preset, timer, rating, joined, seen)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (me, preset, timer, NEW_RATING if rating is None else rating, when, when),
            )
        return Entry("waiting", when, preset, timer)

    def queue_entry(self, me: str, when: float) -> Entry | None:
        """My place in the queue (None: not in it), noting that I asked at ``when``."""
        with self._transaction() as run:
            run("UPDATE queue SET seen = ? WHERE player_id = ?", (when, me))
            return _entry(run, me)

    def want_bots(self, me: str) -> bool:
        """Ask to be seated with bots in the empty seats at the next pairing step; False
        when I am not waiting."""
        with self._transaction() as run:
            return bool(
                run(
                    "UPDATE queue SET bots = 1 WHERE player_id = ? AND table_id IS NULL"
                    " AND claim IS NULL RETURNING player_id",
                    (me,),
                )
            )

    def leave_queue(self, me: str) -> None:
        """Leave the queue, or forget the table it found me (no news if neither)."""
        with self._transaction() as run:
            run("DELETE FROM queue WHERE player_id = ?", (me,))

    def claim_matches(self, now: float, rng: random.Random) -> list[tuple[str, Match]]:
        """The pairing step: the tables the waiting players make now, each with the claim
        that took its players' rows (one transaction: rows claimed by another node's step
        meanwhile are skipped). Stale rows are dropped first, and lost claims let go."""
        with self._transaction() as run:
            run(
                "DELETE FROM queue WHERE (table_id IS NULL AND claim IS NULL AND seen < ?)"
                " OR (table_id IS NOT NULL AND joined < ?)",
                (now - STALE_AFTER, now - SEATED_LIFE),
            )
            run(
                "UPDATE queue SET claim = NULL, claimed = NULL"
                " WHERE table_id IS NULL AND claimed < ?",
                (now - CLAIM_LIFE,),
            )
            lock = " FOR UPDATE OF q SKIP LOCKED" if self._postgres else ""
            rows = run(
                "SELECT q.player_id, p.name, q.preset, q.timer, q.rating, q.joined, q.bots"
                " FROM queue q JOIN players p ON p.id = q.player_id"
                " WHERE q.table_id IS NULL AND q.claim IS NULL" + lock,
            )
            waiting = [
                Waiting(
                    str(a),
                    str(b),
                    str(c),
                    None if d is None else int(d),
                    float(e),
                    float(f),
                    bool(g),
                )
                for a, b, c, d, e, f, g in rows
            ]
            blocks = {
                frozenset((str(a), str(b)))
                for a, b in run(
                    "SELECT f.player_id, f.friend_id FROM friends f"
                    " JOIN queue a ON a.player_id = f.player_id"
                    " JOIN queue b ON b.player_id = f.friend_id WHERE f.state = 'blocked'"
                )
            }
            claimed = []
            for match in pair(waiting, blocks, now, rng):
                claim = secrets.token_hex(8)
                run.many(
                    "UPDATE queue SET claim = ?, claimed = ? WHERE player_id = ?",
                    ((claim, now, player) for player in match.seats.values()),
                )
                claimed.append((claim, match))
        return claimed

    def seat_match(self, claim: str, table_id: str, seats: dict[str, tuple[str, str]]) -> None:
        """Write the table the claim's players were seated at: for each player id its seat
        and token; each seat is bound to its player's account."""
        with self._transaction() as run:
            for player, (seat, token) in seats.items():
                run(
                    "UPDATE queue SET table_id = ?, seat = ?, token = ?, claim = NULL,"
                    " claimed = NULL WHERE player_id = ? AND claim = ?",
                    (table_id, seat, token, player, claim),
                )
                run(
                    "INSERT INTO seat_players (table_id, seat, player_id) VALUES (?, ?, ?)",
                    (table_id, seat, player),
                )

    def release_claim(self, claim: str) -> None:
        """Put the claim's players back in the queue (their table could not be made)."""
        with self._transaction() as run:
            run("UPDATE queue SET claim = NULL, claimed = NULL WHERE claim = ?", (claim,))


def _entry(run: Run, me: str) -> Entry | None:
    rows = run(
        "SELECT joined, preset, timer, table_id, seat, token FROM queue WHERE player_id = ?",
        (me,),
    )
    if not rows:
        return None
    joined, preset, timer, table_id, seat, token = rows[0]
    timer = _timer(timer)
    if table_id is None:
        return Entry("waiting", float(joined), str(preset), timer)
    return Entry("seated", float(joined), str(preset), timer, str(table_id), str(seat), str(token))


def _timer(value: Any) -> int | None:
    return None if value is None else int(value)


#: Runs a store's call off the event loop (the hall's storage thread, or a thread of its own).
Storing = Callable[..., Awaitable[Any]]
#: Makes a table from a ``POST /api/tables`` request: its id and each human seat's token.
Creating = Callable[[dict[str, Any]], Awaitable[tuple[str, dict[str, str]]]]


async def seat_waiting(
    store: QuickMatch,
    storing: Storing,
    create: Creating,
    *,
    now: float,
    rng: random.Random,
    bot: str,
) -> list[str]:
    """One pairing step of this node: the waiting players claimed, their tables made here
    (bots named ``bot`` in the empty seats) and written to their rows; the new tables' ids.
    A table that cannot be made puts its players back in the queue, and the error is raised
    once the others are seated."""
    made = []
    failure: Exception | None = None
    for claim, match in await storing(store.claim_matches, now, rng):
        request = {
            "seats": {seat: "human" if seat in match.seats else f"bot:{bot}" for seat in SEATS},
            "names": {seat: _table_name(name) for seat, name in match.names.items()},
            "rules": match.preset,
            "timer": match.timer,
            "public": False,
        }
        try:
            table_id, tokens = await create(request)
            seats = {player: (seat, tokens[seat]) for seat, player in match.seats.items()}
            await storing(store.seat_match, claim, table_id, seats)
        except Exception as error:  # storage, or a table refused: the players wait again
            failure = failure or error
            await storing(store.release_claim, claim)
            continue
        made.append(table_id)
    if failure is not None:
        raise failure
    return made


def _table_name(name: str) -> str:
    """An account's name as a table's seat shows it (what a table request accepts)."""
    shown = " ".join(name.split())[:40]
    return shown if shown.isprintable() and not shown.startswith("bot:") else ""
