"""The store of tables and finished matches, the same tests on SQLite and on PostgreSQL.

The PostgreSQL cases read a server URL from ``BALOOT_TEST_POSTGRES``; without it they are
skipped, except under ``CI=true`` where a missing URL or an unreachable server fails them.
Each PostgreSQL test gets a schema of its own (``open_store(url, schema=...)``), dropped
after, so the tests may run in parallel and again.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import psycopg
import pytest
from conftest import Opener
from helpers import wait_for

from baloot.core.seats import Seat
from baloot.server import storage, transactions
from baloot.server.journal import Step, StepKind, TableConfig
from baloot.server.storage import StorageAway, StorageError, Store, open_store

BOT = "bot:heuristic"


@pytest.fixture
def store(opener: Opener) -> Store:
    return opener()


def config(table_id: str, humans: tuple[str, ...] = ("S",), created: float = 1000.0) -> TableConfig:
    players = {seat: ("Saad" if seat in humans else BOT) for seat in "NESW"}
    tokens = {seat: f"digest-{seat}" for seat in humans}
    return TableConfig(table_id, players, humans, "classic", 7, 30, True, tokens, created)


def steps(first_v: int, count: int) -> list[Step]:
    return [
        Step(StepKind.ACT, v, Seat.S, f"c{v}", (f"S play {v}",))
        for v in range(first_v, first_v + count)
    ]


def playing(store: Store) -> list[tuple[TableConfig, list[Step]]]:
    """The tables in play, each read."""
    return [kept.read() for kept in store.playing()]


def test_a_new_database_is_migrated_to_the_current_version(store: Store) -> None:
    assert store.version() == len(storage.MIGRATIONS) >= 1
    assert store.migrated == list(range(1, len(storage.MIGRATIONS) + 1))


def test_reopening_does_not_migrate_again(opener: Opener) -> None:
    opener().create(config("t1"))
    again = opener()
    assert again.migrated == []
    assert again.version() == len(storage.MIGRATIONS)
    assert [kept.id for kept in again.playing()] == ["t1"]


def test_a_later_version_is_applied_on_open(
    opener: Opener, monkeypatch: pytest.MonkeyPatch
) -> None:
    opener().create(config("t1"))
    later = (*storage.MIGRATIONS, ("CREATE INDEX tables_last_seen ON tables (last_seen)",))
    monkeypatch.setattr(storage, "MIGRATIONS", later)
    again = opener()
    assert again.migrated == [len(later)]
    assert again.version() == len(later)
    assert [kept.id for kept in again.playing()] == ["t1"]


def test_a_newer_database_is_refused(store: Store, opener: Opener) -> None:
    with store._transaction() as run:
        run("UPDATE schema_version SET version = ?", (len(storage.MIGRATIONS) + 1,))
    with pytest.raises(StorageError, match="newer than this pybaloot knows") as caught:
        opener()
    assert "password" not in str(caught.value) and "baloot:baloot" not in str(caught.value)


@pytest.mark.parametrize("lost", ["DELETE FROM schema_version", "DROP TABLE schema_version"])
def test_a_database_with_tables_but_no_schema_version_is_refused_in_one_line(
    store: Store, opener: Opener, lost: str
) -> None:
    store.create(config("t1"))
    with store._transaction() as run:
        run(lost)
    with pytest.raises(StorageError) as caught:
        opener()
    message = str(caught.value)
    assert message == (
        f"the {store.where} has tables but no schema version: it was not made by pybaloot, "
        "or its schema_version table was emptied; restore it from a backup"
    )
    with store._transaction() as run:
        assert run("SELECT id FROM tables") == [("t1",)]  # nothing was changed


def test_a_database_with_an_empty_schema_version_table_alone_is_migrated(
    store: Store, opener: Opener
) -> None:
    with store._transaction() as run:
        # Every table of the schema, each before those it refers to.
        for table in (
            "tournament_seats",
            "tournament_games",
            "tournament_pairs",
            "tournaments",
            "screen_reviews",
            "screen_pairs",
            "screen_runs",
            "operators",
            "daily_plays",
            "daily_days",
            "rating_changes",
            "ratings",
            "player_seen",
            "invites",
            "queue",
            "friends",
            "seat_players",
            "login_attempts",
            "sessions",
            "players",
            "leases",
            "nodes",
            "analyses",
            "steps",
            "tables",
        ):
            run(f"DROP TABLE {table}")
        run("DELETE FROM schema_version")
    again = opener()
    assert again.migrated == list(range(1, len(storage.MIGRATIONS) + 1))
    assert again.version() == len(storage.MIGRATIONS)


def test_tables_and_steps_round_trip_in_order(store: Store, opener: Opener) -> None:
    first, second = config("t1", created=1.0), config("t2", ("N", "S"), created=2.0)
    store.create(first)
    store.create(second)
    bot = Step(StepKind.BOT, 1, Seat.E, None, ("E pass",))
    store.append("t1", [bot], first=0)
    store.append("t2", steps(1, 3), first=0)
    store.append("t1", steps(2, 2), first=1)
    claim = Step(StepKind.CLAIM, 5, Seat.N, "x", ("a", "b"))
    store.append("t2", [Step(StepKind.DEAL, 4), claim], first=3)
    store.append("t1", [], first=0)  # nothing to keep: whatever it says
    expected = [
        (first, [bot, *steps(2, 2)]),
        (
            second,
            [
                *steps(1, 3),
                Step(StepKind.DEAL, 4),
                Step(StepKind.CLAIM, 5, Seat.N, "x", ("a", "b")),
            ],
        ),
    ]
    assert playing(store) == expected
    assert playing(opener()) == expected
    assert store.kept("t2") == opener().playing()[1] and store.kept("nonesuch") is None


def test_a_batch_keeps_several_tables_steps_in_one_transaction_all_or_none(
    store: Store,
) -> None:
    store.create(config("t1"))
    store.create(config("t2"))
    store.append_batch(
        [("t1", 0, steps(1, 2), None), ("t2", 0, steps(1, 1), None), ("t1", 2, steps(3, 1), None)]
    )
    assert [kept for _, kept in playing(store)] == [steps(1, 3), steps(1, 1)]
    with pytest.raises(StorageError):
        store.append_batch([("t2", 1, steps(2, 1), None), ("nonesuch", 0, steps(1, 1), None)])
    assert [kept for _, kept in playing(store)] == [steps(1, 3), steps(1, 1)]


def test_a_step_that_does_not_follow_the_kept_ones_is_refused(store: Store) -> None:
    """Two copies of one table writing to its journal: the second one's steps do not follow,
    and are refused instead of being mixed in."""
    store.create(config("t1"))
    store.append("t1", steps(1, 2), first=0)
    for first in (0, 1, 3):
        with pytest.raises(StorageError, match="another copy of the table is writing"):
            store.append("t1", steps(3, 1), first=first)
    with pytest.raises(StorageError, match="another copy"):
        store.append_batch([("t1", 2, steps(3, 1), None), ("t1", 2, steps(4, 1), None)])
    assert [kept for _, kept in playing(store)] == [steps(1, 2)]
    store.append("t1", steps(3, 1), first=2)
    assert [kept for _, kept in playing(store)] == [steps(1, 3)]


def test_a_table_id_is_created_once(store: Store) -> None:
    store.create(config("t1"))
    with pytest.raises(StorageError, match="exists"):
        store.create(config("t1"))


def test_unknown_tables_are_refused(store: Store) -> None:
    with pytest.raises(StorageError, match="unknown table"):
        store.append("nope", steps(1, 1), first=0)
    with pytest.raises(StorageError, match="unknown table"):
        store.seen("nope", 5.0)
    with pytest.raises(StorageError, match="unknown table"):
        store.finish("nope", "", {}, 5.0)
    assert store.match_record("nope") is None


class Unwritable(Step):
    """A step whose JSON cannot be written: it fails in the middle of a batch."""

    def to_json(self) -> dict[str, Any]:
        return {"kind": "act", "v": self.v, "bad": object()}


def test_append_is_all_or_nothing(store: Store) -> None:
    store.create(config("t1"))
    store.append("t1", steps(1, 2), first=0)
    with pytest.raises(TypeError):
        store.append("t1", [*steps(3, 2), Unwritable(StepKind.ACT, 5), *steps(6, 1)], first=2)
    store.append("t1", steps(3, 1), first=2)
    assert playing(store) == [(config("t1"), steps(1, 3))]


def test_finish_then_history_and_record(store: Store) -> None:
    store.create(config("t1", created=1.0))
    store.create(config("t2", created=2.0))
    store.create(config("t3", created=3.0))
    assert store.match_record("t1") == ("playing", None)
    summary = {"players": {"S": "Saad"}, "totals": [152, 80], "winner": "NS"}
    store.finish("t1", "format = 'baloot/1'\n", summary, when=50.0)
    store.finish("t3", "format = 'baloot/1'\n# t3\n", {"winner": "EW"}, when=60.0)
    assert store.match_record("t1") == ("over", "format = 'baloot/1'\n")
    assert [kept.id for kept in store.playing()] == ["t2"]
    history = store.history()
    assert [(entry["id"], entry["status"], entry["finished"]) for entry in history] == [
        ("t3", "over", 60.0),
        ("t1", "over", 50.0),
    ]
    assert history[1]["summary"] == summary
    assert history[1]["players"] == config("t1").players
    assert history[1]["public"] is True
    assert [entry["id"] for entry in store.history(limit=1, offset=1)] == ["t1"]


def test_any_node_reads_a_tables_status_and_config(store: Store) -> None:
    store.create(config("t1"))
    status, text = store.table_config("t1") or (None, "")
    assert status == "playing" and TableConfig.from_json(json.loads(text)) == config("t1")
    store.finish("t1", "format = 'baloot/1'\n", {}, when=50.0)
    assert (store.table_config("t1") or (None,))[0] == "over"
    assert store.table_config("nope") is None


def test_close_idle_closes_only_idle_tables_with_humans(store: Store) -> None:
    store.create(config("idle", created=10.0))
    store.create(config("active", created=10.0))
    store.create(config("bots", humans=(), created=10.0))
    store.create(config("over", created=10.0))
    store.create(config("acted", created=10.0))
    store.append("idle", steps(1, 1), first=0)
    store.append("acted", steps(1, 1), first=0, seen=99.0)
    store.finish("over", "record", {}, when=20.0)
    store.seen("active", 100.0)
    store.seen("active", 90.0)  # never back in time
    assert store.close_idle(before=95.0, when=200.0) == ["idle"]
    assert store.close_idle(before=95.0, when=201.0) == []
    assert [kept.id for kept in store.playing()] == ["acted", "active", "bots"]
    assert store.match_record("idle") == ("closed", None)
    assert [(entry["id"], entry["status"], entry["summary"]) for entry in store.history()] == [
        ("idle", "closed", None),
        ("over", "over", {}),
    ]
    assert store.close_idle(before=101.0, when=300.0) == ["acted", "active"]


def test_close_table_keeps_what_is_known(store: Store) -> None:
    store.create(config("t1"))
    store.close_table("t1", 70.0, {"totals": [40, 12]})
    assert store.match_record("t1") == ("closed", None)
    assert store.history()[0]["summary"] == {"totals": [40, 12]}
    assert playing(store) == []


def test_a_store_works_from_another_thread(opener: Opener) -> None:
    store = opener()
    errors: list[BaseException] = []

    def work() -> None:
        try:
            store.create(config("t1"))
            store.append("t1", steps(1, 3), first=0)
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert errors == []
    assert playing(store) == [(config("t1"), steps(1, 3))]


def test_a_sqlite_target_is_a_path(tmp_path: Path) -> None:
    with open_store(str(tmp_path / "x.db")) as store:
        assert store.where.startswith("SQLite")
    with pytest.raises(StorageError, match="PostgreSQL only"):
        open_store(":memory:", schema="x")
    with pytest.raises(StorageError, match="cannot open"):
        open_store(str(tmp_path / "missing" / "x.db"))


def cut_off(store: Store, postgres_url: str) -> None:
    """End the store's PostgreSQL connection from the server's side, as a restart does."""
    assert isinstance(store._connection, psycopg.Connection)
    backend = store._connection.info.backend_pid
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (backend,))


@pytest.mark.parametrize("opener", ["postgresql"], indirect=True)
def test_a_lost_postgresql_connection_fails_what_was_under_way_and_is_opened_again(
    opener: Opener, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database restarts under a store: the transaction under way fails with
    StorageAway (nothing of it may be acknowledged), and the next call opens a connection
    again, in the store's schema; while that fails, calls fail at once and the tries are
    paced."""
    store = opener()
    store.create(config("t1"))
    cut_off(store, postgres_url)
    with pytest.raises(StorageAway, match="is unreachable"):
        store.append("t1", steps(1, 1), first=0)
    store.append("t1", steps(1, 1), first=0)  # opened again, in the test's own schema
    assert store.outages == 1 and playing(store) == [(config("t1"), steps(1, 1))]

    tries: list[float] = []

    def refused() -> psycopg.Connection[Any]:
        tries.append(time.monotonic())
        raise psycopg.OperationalError("connection refused")

    reopen = store._reopen
    monkeypatch.setattr(store, "_reopen", refused)
    cut_off(store, postgres_url)
    for _ in range(3):  # lost, then refused once, then not tried again so soon
        with pytest.raises(StorageAway):
            store.append("t1", steps(2, 1), first=1)
    assert len(tries) == 1
    time.sleep(transactions.FIRST_RETRY)
    with pytest.raises(StorageAway):
        store.version()
    assert len(tries) == 2
    monkeypatch.setattr(store, "_reopen", reopen)
    assert wait_for(lambda: _works(store))
    store.append("t1", steps(2, 1), first=1)
    assert store.outages == 2 and playing(store) == [(config("t1"), steps(1, 2))]
    store.close()
    with pytest.raises(StorageError) as closed:  # closed by its owner: never opened again
        store.version()
    assert not isinstance(closed.value, StorageAway)


def _works(store: Store) -> bool:
    try:
        store.version()
    except StorageAway:
        return False
    return True
