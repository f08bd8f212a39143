"""A tournament's rounds as the store advances them: each round paired once, each table's
match scored as it ends, the next round paired when the last table of one ends.

Every function here runs inside one of the store's transactions (a :class:`Run`), and pairs
and scores with :mod:`baloot.tournaments` alone. A round is paired exactly once however many
nodes end its tables at once: the tournament's row is locked first on PostgreSQL (SQLite has
one writer), and the round number moves forward only by a conditional update from the round
before (``WHERE round = ?``), so that a second attempt changes nothing.

>>> table_points({"winner": "EW"}), table_points({"totals": {"NS": 90, "EW": 61}})
((0, 2), (2, 0))
>>> table_points(None)
(1, 1)
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from baloot.server.transactions import Run
from baloot.tournaments.scoring import Format, match_points
from baloot.tournaments.swiss import Entrant, Game, Settings, pair_round

#: The seats of a tournament's table: the North–South pair's first player at N and its
#: partner at S, the East–West pair's at E and W.
SEATS: Final = ("N", "S", "E", "W")
#: The seconds after which a claim to make a round's table, never written, is let go.
CLAIM_LIFE: Final = 30.0


@dataclass(frozen=True, slots=True)
class Seating:
    """A table of a round to make: the claim that took it, where it belongs, its rules and
    timer, and for each seat the account's id and name."""

    claim: str
    tournament: str
    round: int
    table_no: int
    preset: str
    timer: int | None
    seats: dict[str, tuple[str, str]]


def settings_of(format_name: str) -> Settings:
    """A tournament's scoring of what is not played (its format's byes; late entrants 0)."""
    return Settings(Format(format_name))


def field(run: Run, tournament: str) -> tuple[list[Entrant], list[Game]]:
    """The pairs entered (each with its seed, first round and withdrawal) and every game and
    bye already scored."""
    entrants = [
        Entrant(str(id_), int(seed), int(joined), None if gone is None else int(gone))
        for id_, seed, joined, gone in run(
            "SELECT id, seed, joined, withdrawn FROM tournament_pairs"
            " WHERE tournament_id = ? AND state = 'entered' ORDER BY seed, id",
            (tournament,),
        )
    ]
    games = [
        Game(int(n), str(ns), None if ew is None else str(ew), float(a), float(b))
        for n, ns, ew, a, b in run(
            "SELECT round, ns, ew, ns_points, ew_points FROM tournament_games"
            " WHERE tournament_id = ? AND ns_points IS NOT NULL ORDER BY round, table_no",
            (tournament,),
        )
    ]
    return entrants, games


def advance(run: Run, tournament: str, postgres: bool) -> None:
    """Pair the next round once every game of the current one is scored (the first round
    once the tournament runs), or end the tournament after its last round; nothing while a
    table of the round is still played."""
    lock = " FOR UPDATE" if postgres else ""
    while True:
        rows = run(
            f"SELECT state, round, rounds, seed, format FROM tournaments WHERE id = ?{lock}",
            (tournament,),
        )
        if not rows or rows[0][0] != "running":
            return
        _, round_no, rounds, seed, format_name = rows[0]
        if run(
            "SELECT 1 FROM tournament_games WHERE tournament_id = ? AND round = ?"
            " AND ns_points IS NULL",
            (tournament, round_no),
        ):
            return
        if round_no >= rounds:
            run("UPDATE tournaments SET state = 'over' WHERE id = ?", (tournament,))
            return
        moved = run(
            "UPDATE tournaments SET round = ? WHERE id = ? AND round = ? AND state = 'running'"
            " RETURNING id",
            (round_no + 1, tournament, round_no),
        )
        if not moved:
            return
        _pair(run, tournament, round_no + 1, int(seed), settings_of(str(format_name)))


def _pair(run: Run, tournament: str, round_no: int, seed: int, settings: Settings) -> None:
    """Keep round ``round_no``'s tables (numbered from 1, their tables made later) and its
    bye (table 0, scored at once)."""
    entrants, games = field(run, tournament)
    pairing = pair_round(entrants, games, round_no, seed=seed, settings=settings)
    run.many(
        "INSERT INTO tournament_games (tournament_id, round, table_no, ns, ew)"
        " VALUES (?, ?, ?, ?, ?)",
        ((tournament, round_no, n, t.ns, t.ew) for n, t in enumerate(pairing.tables, 1)),
    )
    if pairing.bye is not None:
        run(
            "INSERT INTO tournament_games (tournament_id, round, table_no, ns, ew, ns_points,"
            " ew_points) VALUES (?, ?, 0, ?, NULL, ?, 0)",
            (tournament, round_no, pairing.bye, settings.bye),
        )


def table_points(summary: Mapping[str, Any] | None) -> tuple[int, int]:
    """The match points of a tournament table's two pairs (NS, EW) from its summary: its
    winner's, else (a table closed unfinished) the totals it stopped at, else a draw."""
    summary = summary or {}
    winner = summary.get("winner")
    if winner in ("NS", "EW"):
        return match_points(1, 0) if winner == "NS" else match_points(0, 1)
    totals = summary.get("totals")
    if isinstance(totals, dict) and all(isinstance(totals.get(k), int) for k in ("NS", "EW")):
        return match_points(int(totals["NS"]), int(totals["EW"]))
    return match_points(0, 0)


def record_ending(
    run: Run, table_id: str, summary: Mapping[str, Any] | None, postgres: bool
) -> None:
    """Score the tournament game played at ``table_id`` as the table leaves play (in the
    transaction that ends it), once, and advance its tournament; nothing for another table."""
    rows = run(
        "SELECT tournament_id FROM tournament_games WHERE table_id = ? AND ns_points IS NULL",
        (table_id,),
    )
    if not rows:
        return
    tournament = str(rows[0][0])
    if postgres:  # the tournament's lock first: two tables ending at once score in turn
        run("SELECT id FROM tournaments WHERE id = ? FOR UPDATE", (tournament,))
    known = dict(summary or {})
    if "totals" not in known:  # closed with nothing said: the totals it was last kept at
        kept = run("SELECT score_ns, score_ew FROM tables WHERE id = ?", (table_id,))
        if kept:
            known["totals"] = {"NS": int(kept[0][0]), "EW": int(kept[0][1])}
    ns, ew = table_points(known)
    scored = run(
        "UPDATE tournament_games SET ns_points = ?, ew_points = ?"
        " WHERE table_id = ? AND ns_points IS NULL RETURNING round",
        (ns, ew, table_id),
    )
    if scored:
        advance(run, tournament, postgres)


#: The games of running tournaments' current rounds whose tables are not made yet, nor
#: claimed by a node in the last :data:`CLAIM_LIFE` seconds (its one parameter: the time
#: before which a claim has lapsed).
_UNMADE: Final = (
    "FROM tournaments t JOIN tournament_games g"
    " ON g.tournament_id = t.id AND g.round = t.round"
    " WHERE t.state = 'running' AND g.ew IS NOT NULL AND g.table_id IS NULL"
    " AND g.ns_points IS NULL AND (g.claimed IS NULL OR g.claimed < ?)"
)


def to_seat(run: Run, now: float) -> list[str]:
    """The tournaments with a table of their current round to make (:func:`claim_tables`)."""
    rows = run(f"SELECT DISTINCT t.id {_UNMADE} ORDER BY t.id", (now - CLAIM_LIFE,))
    return [str(row[0]) for row in rows]


def claim_tables(run: Run, tournament: str, now: float, postgres: bool) -> list[Seating]:
    """Claim the tables of the tournament's current round not made yet (nor claimed by a
    node in the last :data:`CLAIM_LIFE` seconds): what this node makes next."""
    lock = " FOR UPDATE OF g SKIP LOCKED" if postgres else ""
    rows = run(
        "SELECT g.round, g.table_no, g.ns, g.ew, t.preset, t.timer"
        f" {_UNMADE} AND t.id = ? ORDER BY g.table_no{lock}",
        (now - CLAIM_LIFE, tournament),
    )
    made = []
    for round_no, table_no, ns, ew, preset, timer in rows:
        claim = secrets.token_hex(8)
        run(
            "UPDATE tournament_games SET claim = ?, claimed = ?"
            " WHERE tournament_id = ? AND round = ? AND table_no = ?",
            (claim, now, tournament, round_no, table_no),
        )
        seats = {
            **_players(run, tournament, str(ns), "NS"),
            **_players(run, tournament, str(ew), "EW"),
        }
        made.append(
            Seating(
                claim,
                tournament,
                int(round_no),
                int(table_no),
                str(preset),
                None if timer is None else int(timer),
                seats,
            )
        )
    return made


def _players(run: Run, tournament: str, pair: str, side: str) -> dict[str, tuple[str, str]]:
    """The seats of a pair at a table: its first player N (or E), its partner S (or W)."""
    (player, partner, first, second), *_ = run(
        "SELECT p.player_id, p.partner_id, a.name, b.name FROM tournament_pairs p"
        " JOIN players a ON a.id = p.player_id JOIN players b ON b.id = p.partner_id"
        " WHERE p.tournament_id = ? AND p.id = ?",
        (tournament, pair),
    )
    one, two = ("N", "S") if side == "NS" else ("E", "W")
    return {one: (str(player), str(first)), two: (str(partner), str(second))}


def seat_table(run: Run, seating: Seating, table_id: str, tokens: Mapping[str, str]) -> bool:
    """Write the table made for ``seating`` and each seat's token, its seats bound to the
    accounts; False when the claim was lost meanwhile (another node made the table)."""
    kept = run(
        "UPDATE tournament_games SET table_id = ?, claim = NULL, claimed = NULL"
        " WHERE tournament_id = ? AND round = ? AND table_no = ? AND claim = ?"
        " AND table_id IS NULL RETURNING table_no",
        (table_id, seating.tournament, seating.round, seating.table_no, seating.claim),
    )
    if not kept:
        return False
    for seat, (player, _) in seating.seats.items():
        run(
            "INSERT INTO seat_players (table_id, seat, player_id) VALUES (?, ?, ?)",
            (table_id, seat, player),
        )
        run(
            "INSERT INTO tournament_seats (table_id, seat, player_id, token) VALUES (?, ?, ?, ?)",
            (table_id, seat, player, tokens[seat]),
        )
    return True
