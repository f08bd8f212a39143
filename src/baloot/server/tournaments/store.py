"""Swiss tournaments for pairs as the store keeps them: each tournament, its pairs (two
accounts who both consent), and every round's games (``docs/tournaments.md``).

``tournaments`` holds a tournament's organiser, name, rules preset, timer, number of rounds,
format, seed, state (``open`` to registration, ``running``, ``over``) and the round being
played. ``tournament_pairs`` holds each pair: the account that registered it and the partner it
named, ``asked`` until the partner accepts, then ``entered`` with its seed (given when the
tournament starts, or next for a late entrant), the first round it plays and the first it no
longer plays once withdrawn. ``tournament_games`` holds each round's tables (numbered from 1;
a bye is table 0, scored at once), the server table each was made as, and the two pairs'
match points once it ends; ``tournament_seats`` each seat's account and token, which the
player reads on the tournament's page. Every change is one transaction; the rounds move on
in :mod:`~baloot.server.tournaments.director`.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any, Final

from baloot.server.players.names import name_key
from baloot.server.players.quick_match import NEW_RATING, rating_of
from baloot.server.tournaments import director
from baloot.server.tournaments.director import Seating
from baloot.server.transactions import Run, StorageError, Transactions
from baloot.tournaments.swiss import Entrant, Game

#: The schema version of the tournaments (appended to ``PLAYERS_MIGRATIONS``).
TOURNAMENTS_SCHEMA: Final = (
    """CREATE TABLE tournaments (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        organiser TEXT NOT NULL REFERENCES players (id),
        preset TEXT NOT NULL,
        timer INTEGER,
        rounds INTEGER NOT NULL,
        format TEXT NOT NULL,
        seed INTEGER NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('open', 'running', 'over')),
        round INTEGER NOT NULL DEFAULT 0,
        created DOUBLE PRECISION NOT NULL
    )""",
    "CREATE INDEX tournaments_created ON tournaments (created)",
    """CREATE TABLE tournament_pairs (
        tournament_id TEXT NOT NULL REFERENCES tournaments (id),
        id TEXT NOT NULL,
        player_id TEXT NOT NULL REFERENCES players (id),
        partner_id TEXT NOT NULL REFERENCES players (id),
        state TEXT NOT NULL CHECK (state IN ('asked', 'entered')),
        seed INTEGER,
        joined INTEGER NOT NULL DEFAULT 1,
        withdrawn INTEGER,
        created DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (tournament_id, id)
    )""",
    """CREATE TABLE tournament_games (
        tournament_id TEXT NOT NULL REFERENCES tournaments (id),
        round INTEGER NOT NULL,
        table_no INTEGER NOT NULL,
        ns TEXT NOT NULL,
        ew TEXT,
        table_id TEXT UNIQUE REFERENCES tables (id),
        ns_points DOUBLE PRECISION,
        ew_points DOUBLE PRECISION,
        claim TEXT,
        claimed DOUBLE PRECISION,
        PRIMARY KEY (tournament_id, round, table_no)
    )""",
    """CREATE TABLE tournament_seats (
        table_id TEXT NOT NULL REFERENCES tables (id),
        seat TEXT NOT NULL,
        player_id TEXT NOT NULL REFERENCES players (id),
        token TEXT NOT NULL,
        PRIMARY KEY (table_id, seat)
    )""",
)
#: The most pairs (asked or entered) one tournament holds.
MAX_PAIRS: Final = 64


class TournamentError(StorageError):
    """A tournament's request refused: ``status`` its 4xx, the text one line for the player
    (a refusal of the store's, so that it reaches its caller as it is, from the writer
    thread)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True, slots=True)
class Listed:
    """A tournament as the list shows it."""

    id: str
    name: str
    organiser: str
    preset: str
    timer: int | None
    rounds: int
    format: str
    state: str
    round: int
    created: float
    pairs: int


@dataclass(frozen=True, slots=True)
class Pair:
    """A pair: its id, its two accounts' ids and names (the registrant first), its state,
    seed, first round and withdrawal."""

    id: str
    players: tuple[str, str]
    names: tuple[str, str]
    state: str
    seed: int | None
    joined: int
    withdrawn: int | None

    def entrant(self) -> Entrant:
        """The pair as the pairing sees it."""
        return Entrant(self.id, self.seed or 0, self.joined, self.withdrawn)


@dataclass(frozen=True, slots=True)
class Played:
    """A game of a round: its table (0: a bye), pairs, server table and points once over."""

    round: int
    table_no: int
    ns: str
    ew: str | None
    table_id: str | None
    ns_points: float | None
    ew_points: float | None

    def game(self) -> Game:
        """The game as the standings read it (scored games only)."""
        return Game(self.round, self.ns, self.ew, self.ns_points or 0.0, self.ew_points or 0.0)


@dataclass(frozen=True, slots=True)
class Kept:
    """A whole tournament: what the list shows, its organiser's id, its pairs, its games, and
    each seat (account id, token) of the current round's tables."""

    listed: Listed
    organiser_id: str
    pairs: list[Pair]
    games: list[Played]
    seats: dict[str, dict[str, tuple[str, str]]]


_LISTED = (
    "SELECT t.id, t.name, o.name, t.preset, t.timer, t.rounds, t.format, t.state, t.round,"
    " t.created, (SELECT COUNT(*) FROM tournament_pairs p WHERE p.tournament_id = t.id"
    " AND p.state = 'entered') FROM tournaments t JOIN players o ON o.id = t.organiser"
)


class Tournaments(Transactions):
    """The tournaments, their pairs and rounds (a part of the Store)."""

    def create_tournament(
        self,
        me: str,
        name: str,
        preset: str,
        timer: int | None,
        rounds: int,
        format_name: str,
        when: float,
    ) -> str:
        """A new tournament organised by ``me``, open to registration: its id."""
        id_ = secrets.token_hex(8)
        with self._transaction() as run:
            run(
                "INSERT INTO tournaments (id, name, organiser, preset, timer, rounds, format,"
                " seed, state, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'open', ?)",
                (id_, name, me, preset, timer, rounds, format_name, secrets.randbelow(2**31), when),
            )
        return id_

    def tournaments(self, limit: int) -> list[Listed]:
        """The last ``limit`` tournaments made, the newest first."""
        with self._transaction() as run:
            rows = run(f"{_LISTED} ORDER BY t.created DESC, t.id LIMIT ?", (limit,))
        return [_listed(row) for row in rows]

    def tournament(self, tournament: str) -> Kept | None:
        """The tournament ``tournament`` whole, or None."""
        with self._transaction() as run:
            rows = run(f"{_LISTED} WHERE t.id = ?", (tournament,))
            if not rows:
                return None
            listed = _listed(rows[0])
            organiser = str(
                run("SELECT organiser FROM tournaments WHERE id = ?", (tournament,))[0][0]
            )
            pairs = [
                Pair(
                    str(id_),
                    (str(a), str(b)),
                    (str(an), str(bn)),
                    str(state),
                    None if seed is None else int(seed),
                    int(joined),
                    None if gone is None else int(gone),
                )
                for id_, a, b, an, bn, state, seed, joined, gone in run(
                    "SELECT p.id, p.player_id, p.partner_id, a.name, b.name, p.state, p.seed,"
                    " p.joined, p.withdrawn FROM tournament_pairs p"
                    " JOIN players a ON a.id = p.player_id JOIN players b ON b.id = p.partner_id"
                    " WHERE p.tournament_id = ? ORDER BY p.seed, p.created, p.id",
                    (tournament,),
                )
            ]
            games = [
                Played(int(r), int(n), str(ns), _text(ew), _text(table), _number(a), _number(b))
                for r, n, ns, ew, table, a, b in run(
                    "SELECT round, table_no, ns, ew, table_id, ns_points, ew_points"
                    " FROM tournament_games WHERE tournament_id = ? ORDER BY round, table_no",
                    (tournament,),
                )
            ]
            seats: dict[str, dict[str, tuple[str, str]]] = {}
            for table, seat, player, token in run(
                "SELECT s.table_id, s.seat, s.player_id, s.token FROM tournament_seats s"
                " JOIN tournament_games g ON g.table_id = s.table_id"
                " WHERE g.tournament_id = ? AND g.round = ?",
                (tournament, listed.round),
            ):
                seats.setdefault(str(table), {})[str(seat)] = (str(player), str(token))
        return Kept(listed, organiser, pairs, games, seats)

    def register_pair(self, me: str, tournament: str, partner: str, when: float) -> str:
        """Register a pair of ``me`` and the player called ``partner``, who must accept: its
        id. Either in a pair of the tournament already: refused."""
        with self._transaction() as run:
            state, _ = _tournament(run, tournament, self._postgres)
            if state == "over":
                raise TournamentError("the tournament is over", 409)
            found = run(
                "SELECT id FROM players WHERE name_key = ? AND deleted IS NULL",
                (name_key(partner),),
            )
            if not found:
                raise TournamentError("no such player", 404)
            other = str(found[0][0])
            if other == me:
                raise TournamentError("a pair is two players: name your partner", 400)
            for player in (me, other):
                _free(run, tournament, player)
            count = run(
                "SELECT COUNT(*) FROM tournament_pairs WHERE tournament_id = ?", (tournament,)
            )
            if int(count[0][0]) >= MAX_PAIRS:
                raise TournamentError(f"a tournament holds at most {MAX_PAIRS} pairs", 409)
            id_ = secrets.token_hex(6)
            run(
                "INSERT INTO tournament_pairs (tournament_id, id, player_id, partner_id, state,"
                " created) VALUES (?, ?, ?, ?, 'asked', ?)",
                (tournament, id_, me, other, when),
            )
        return id_

    def accept_pair(self, me: str, tournament: str, pair: str) -> None:
        """Accept, as the partner named, the pair ``pair``: it is entered (after the first
        round has started, as a late entrant from the next round, seeded after the others)."""
        with self._transaction() as run:
            state, round_no = _tournament(run, tournament, self._postgres)
            if state == "over":
                raise TournamentError("the tournament is over", 409)
            rows = run(
                "SELECT player_id FROM tournament_pairs WHERE tournament_id = ? AND id = ?"
                " AND partner_id = ? AND state = 'asked'",
                (tournament, pair, me),
            )
            if not rows:
                raise TournamentError("no such pair asks you to be a partner", 404)
            for player in (me, str(rows[0][0])):
                _free(run, tournament, player, but=pair)
            seed, joined = None, 1
            if state == "running":
                last = run(
                    "SELECT MAX(seed) FROM tournament_pairs WHERE tournament_id = ?", (tournament,)
                )[0][0]
                seed, joined = int(last or 0) + 1, round_no + 1
            run(
                "UPDATE tournament_pairs SET state = 'entered', seed = ?, joined = ?"
                " WHERE tournament_id = ? AND id = ?",
                (seed, joined, tournament, pair),
            )

    def withdraw_pair(self, me: str, tournament: str, pair: str) -> None:
        """Withdraw a pair ``me`` is in, or decline one that names me: before the tournament
        runs (or unaccepted) it is gone; once it plays, it stops after the current round."""
        with self._transaction() as run:
            state, round_no = _tournament(run, tournament, self._postgres)
            rows = run(
                "SELECT state, withdrawn FROM tournament_pairs WHERE tournament_id = ?"
                " AND id = ? AND (player_id = ? OR partner_id = ?)",
                (tournament, pair, me, me),
            )
            if not rows:
                raise TournamentError("no such pair of yours", 404)
            if state == "over":
                raise TournamentError("the tournament is over", 409)
            if rows[0][0] == "asked" or state == "open":
                run(
                    "DELETE FROM tournament_pairs WHERE tournament_id = ? AND id = ?",
                    (tournament, pair),
                )
                return
            if rows[0][1] is not None:
                raise TournamentError("the pair has withdrawn already", 409)
            run(
                "UPDATE tournament_pairs SET withdrawn = ? WHERE tournament_id = ? AND id = ?",
                (round_no + 1, tournament, pair),
            )

    def start_tournament(self, me: str, tournament: str) -> None:
        """Start the tournament (its organiser only): the pairs entered are seeded by their
        ratings for its preset, and the first round is paired."""
        with self._transaction() as run:
            state, _ = _tournament(run, tournament, self._postgres)
            rows = run("SELECT organiser, preset FROM tournaments WHERE id = ?", (tournament,))
            organiser, preset = str(rows[0][0]), str(rows[0][1])
            if organiser != me:
                raise TournamentError("only the organiser starts the tournament", 403)
            if state != "open":
                raise TournamentError("the tournament has started already", 409)
            pairs = run(
                "SELECT id, player_id, partner_id, created FROM tournament_pairs"
                " WHERE tournament_id = ? AND state = 'entered'",
                (tournament,),
            )
            if len(pairs) < 2:
                raise TournamentError("a tournament starts with two pairs entered or more", 409)

            def strength(row: tuple[Any, ...]) -> tuple[float, float, str]:
                ratings = [rating_of(run, str(p), preset) for p in row[1:3]]
                mean = sum(NEW_RATING if r is None else r for r in ratings) / 2
                return -mean, float(row[3]), str(row[0])

            run.many(
                "UPDATE tournament_pairs SET seed = ? WHERE tournament_id = ? AND id = ?",
                (
                    (seed, tournament, str(row[0]))
                    for seed, row in enumerate(sorted(pairs, key=strength), 1)
                ),
            )
            run("UPDATE tournaments SET state = 'running' WHERE id = ?", (tournament,))
            director.advance(run, tournament, self._postgres)

    def tournaments_to_seat(self, now: float) -> list[str]:
        """The running tournaments with a table of their current round to make."""
        with self._transaction() as run:
            return director.to_seat(run, now)

    def claim_tournament_tables(self, tournament: str, now: float) -> list[Seating]:
        """Claim the current round's tables not made yet, for this node to make."""
        with self._transaction() as run:
            return director.claim_tables(run, tournament, now, self._postgres)

    def seat_tournament_table(
        self, seating: Seating, table_id: str, tokens: dict[str, str]
    ) -> bool:
        """Write the table made for ``seating`` with its seats' tokens (False: claim lost)."""
        with self._transaction() as run:
            return director.seat_table(run, seating, table_id, tokens)

    def _tournament_ending(self, run: Run, table_id: str, summary: dict[str, Any] | None) -> None:
        """Score a tournament's table as it leaves play, in the transaction that ends it."""
        director.record_ending(run, table_id, summary, self._postgres)


def _tournament(run: Run, tournament: str, postgres: bool) -> tuple[str, int]:
    """The tournament's state and round, its row locked on PostgreSQL; 404 for none."""
    lock = " FOR UPDATE" if postgres else ""
    rows = run(f"SELECT state, round FROM tournaments WHERE id = ?{lock}", (tournament,))
    if not rows:
        raise TournamentError("no such tournament", 404)
    return str(rows[0][0]), int(rows[0][1])


def _free(run: Run, tournament: str, player: str, but: str = "") -> None:
    """Refuse a player already in a pair of the tournament (other than ``but``) that is
    entered and plays on, or that ``player`` registered."""
    rows = run(
        "SELECT a.name FROM tournament_pairs p JOIN players a ON a.id = ?"
        " WHERE p.tournament_id = ? AND p.id <> ? AND p.withdrawn IS NULL"
        " AND (p.player_id = ? OR (p.partner_id = ? AND p.state = 'entered'))",
        (player, tournament, but, player, player),
    )
    if rows:
        raise TournamentError(f"{rows[0][0]} is in a pair of this tournament already", 409)


def _listed(row: tuple[Any, ...]) -> Listed:
    id_, name, organiser, preset, timer, rounds, format_name, state, round_no, created, n = row
    return Listed(
        str(id_),
        str(name),
        str(organiser),
        str(preset),
        None if timer is None else int(timer),
        int(rounds),
        str(format_name),
        str(state),
        int(round_no),
        float(created),
        int(n),
    )


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


def _number(value: Any) -> float | None:
    return None if value is None else float(value)
