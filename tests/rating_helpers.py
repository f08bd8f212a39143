"""The players' rows and real matches for the tests of ratings, profiles and leaderboards:
the accounts' rows are inserted directly (the accounts' own API makes them in a server)."""

from __future__ import annotations

import functools
import random

from baloot.bots.driver import play_match
from baloot.bots.heuristic import HeuristicBot
from baloot.core.match import Match
from baloot.core.rules import Rules
from baloot.core.seats import Seat
from baloot.records.record import Record
from baloot.records.writer import dumps
from baloot.server.journal import TableConfig
from baloot.server.storage import Store

#: Four accounts, one a seat: their ids.
FOUR = {"N": "pn", "S": "ps", "E": "pe", "W": "pw"}


@functools.cache
def played(seed: int) -> tuple[str, str]:
    """A whole classic match played by four heuristic bots: its record and its winner."""
    match = Match(Rules.preset("classic"), Seat.E, random.Random(seed))
    bots = {seat: HeuristicBot(random.Random(seed + int(seat))) for seat in Seat}
    play_match(match, bots)
    assert match.winner is not None
    return dumps(Record.of(match, date="2026-01-01")), match.winner.name


def add_player(store: Store, player_id: str, name: str, deleted: float | None = None) -> None:
    with store._transaction() as run:
        run(
            "INSERT INTO players (id, name, name_key, password, created, deleted)"
            " VALUES (?, ?, ?, '', 0, ?)",
            (
                player_id,
                name,
                name.casefold() if deleted is None else f"deleted:{player_id}",
                deleted,
            ),
        )


def add_table(
    store: Store,
    table_id: str,
    accounts: dict[str, str],
    bots: dict[str, str] | None = None,
    rules: str = "classic",
    created: float = 1000.0,
) -> None:
    """A table whose ``accounts`` seats (seat → player id) are humans bound to accounts,
    ``bots`` seats bots (seat → bot name), the others guests."""
    bots = bots or {}
    players = {seat: (f"bot:{bots[seat]}" if seat in bots else f"human-{seat}") for seat in "NESW"}
    humans = tuple(seat for seat in "NESW" if seat not in bots)
    store.create(TableConfig(table_id, players, humans, rules, 7, None, False, {}, created))
    with store._transaction() as run:
        for seat, player in accounts.items():
            run(
                "INSERT INTO seat_players (table_id, seat, player_id) VALUES (?, ?, ?)",
                (table_id, seat, player),
            )
