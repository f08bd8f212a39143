"""Operators and the screen's kept runs, on SQLite and on PostgreSQL: ``baloot operators
add|remove|list`` against the store, an account an operator only while its row exists (on
every store of the database at once; a deleted account is none), a name no account has or
can have refused in one line with status 1, a database that cannot be opened with 2; and
``baloot screen --keep`` keeping each pair of a run, the newest runs' pairs alone kept.

The accounts' rows are inserted directly (the accounts' own API makes them in a server)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from conftest import Opener
from rating_helpers import add_player
from screen_helpers import keep_a_run
from test_players_ratings_store import target_of

from baloot.__main__ import main as baloot_main
from baloot.server.players import screen_runs
from baloot.server.storage import Store

SIX = ("pa", "pb", "pc", "pd", "pe", "pf")


@pytest.fixture
def store(opener: Opener) -> Store:
    opened = opener()
    add_player(opened, "ps", "Saad")
    add_player(opened, "pn", "Nada")
    add_player(opened, "gone", "", deleted=5.0)
    return opened


def operators(store: Store, *words: str) -> int:
    return baloot_main(["operators", *words, "--db", target_of(store)])


def test_an_operator_is_added_listed_and_removed_by_name(
    store: Store, capsys: pytest.CaptureFixture[str]
) -> None:
    assert operators(store, "list") == 0
    assert capsys.readouterr().out == "no operators: baloot operators add NAME makes one\n"
    assert operators(store, "add", "SAAD") == 0  # the same name, whatever its case
    assert capsys.readouterr().out == "Saad is an operator now\n"
    assert store.is_operator("ps") and not store.is_operator("pn")
    assert operators(store, "add", "Saad") == 0
    assert capsys.readouterr().out == "Saad is an operator already\n"
    assert operators(store, "add", "Nada") == 0
    capsys.readouterr()
    assert operators(store, "list") == 0
    listed = store.operators()
    assert [player.name for player, _ in listed] == ["Nada", "Saad"]
    now = dt.datetime.now(dt.UTC).timestamp()
    assert all(now - 60 < added <= now for _, added in listed)
    days = [dt.datetime.fromtimestamp(added, dt.UTC).date().isoformat() for _, added in listed]
    assert capsys.readouterr().out == f"Nada  (since {days[0]})\nSaad  (since {days[1]})\n"
    assert operators(store, "remove", "Saad") == 0
    assert capsys.readouterr().out == "Saad is an operator no more\n"
    assert not store.is_operator("ps") and store.is_operator("pn")
    assert operators(store, "remove", "Saad") == 0
    assert capsys.readouterr().out == "Saad was not an operator\n"


def test_every_store_of_the_database_agrees_at_once(store: Store, opener: Opener) -> None:
    other = opener()  # another node's
    assert store.add_operator("ps", when=10.0)
    assert other.is_operator("ps")
    assert other.remove_operator("ps")
    assert not store.is_operator("ps")


def test_a_deleted_account_is_no_operator_and_cannot_become_one(store: Store) -> None:
    assert store.add_operator("pn", when=10.0)
    store.delete_player("pn", when=11.0)
    assert not store.is_operator("pn") and store.operators() == []
    assert not store.add_operator("pn", when=12.0)
    assert not store.add_operator("gone", when=12.0)
    assert not store.add_operator("nobody", when=12.0)


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("Nobody", "no account is named 'Nobody'"),
        ("a b", "'a b' is no account's name: a name holds letters, digits, _ and - only"),
        ("", "'' is no account's name: a name has at least one character"),
        ("x" * 30, f"'{'x' * 30}' is no account's name: a name has at most 24 characters"),
        ("\x1b[2J", "'\\x1b[2J' is no account's name: a name holds letters, digits, _ and - only"),
    ],
)
def test_a_name_no_account_has_is_refused_in_one_line_with_status_1(
    store: Store, capsys: pytest.CaptureFixture[str], name: str, said: str
) -> None:
    for action in ("add", "remove"):
        assert operators(store, action, name) == 1
        captured = capsys.readouterr()
        assert (captured.out, captured.err) == ("", f"baloot operators: {said}\n")
    assert store.operators() == []


def test_a_database_that_is_not_there_or_not_a_database_is_refused_with_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = str(tmp_path / "none.db")
    assert baloot_main(["operators", "list", "--db", missing]) == 2
    assert capsys.readouterr().err == f"baloot operators: no SQLite database at {missing}\n"
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"not a database at all" * 100)
    assert baloot_main(["operators", "add", "Saad", "--db", str(garbage)]) == 2
    error = capsys.readouterr().err
    assert error.startswith("baloot operators: ") and error.count("\n") == 1


def test_a_kept_run_keeps_every_pair_the_listed_first(store: Store) -> None:
    for player in SIX:
        add_player(store, player, player.upper())
    assert store.latest_screen() is None
    run = keep_a_run(store, SIX)
    kept = store.latest_screen()
    assert kept is not None and kept.id == run and kept.finished - kept.started == 60.0
    population = kept.body["population"]
    assert population["pairs"] == 3 and population["listed"] == 1 and population["hands"] == 70
    assert population["histogram"] == [0, 0, 0, 0, 0, 2, 0, 0, 0, 1]
    assert "listed" not in kept.body and kept.body["thresholds"]["min_hands"] == 30
    rows = store.screen_pairs(run, 10)
    assert [(row.n, row.names, row.pair.listed) for row in rows] == [
        (1, ("PA", "PB"), True),
        (2, ("PE", "PF"), False),
        (3, ("PC", "PD"), False),
    ]
    cheats = rows[0].pair
    assert (cheats.hands, cheats.decisions, cheats.hits, cheats.matches) == (40, 40, 40, 1)
    assert (cheats.others, cheats.z) == (0.51, 6.2)  # (1 − 0.51) / √(0.51 · 0.49 / 40)
    assert rows[2].pair.matches == 2 and rows[2].pair.z is not None and rows[2].pair.z < 0
    assert [row.n for row in store.screen_pairs(run, 2)] == [1, 2]
    assert store.screen_pair(run, 3) == rows[2] and store.screen_pair(run, 4) is None


def test_only_the_newest_runs_keep_their_pairs_and_every_run_its_reviews(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(screen_runs, "KEPT_RUNS", 2)
    for player in SIX:
        add_player(store, player, player.upper())
    first = keep_a_run(store, SIX, when=1000.0)
    assert store.review_pair(first, 1, "ps", "read: a strong pair", when=1100.0) is not None
    second = keep_a_run(store, SIX, when=2000.0)
    third = keep_a_run(store, SIX, when=3000.0)
    latest = store.latest_screen()
    assert latest is not None and latest.id == third
    assert store.screen_pairs(first, 10) == [] and len(store.screen_pairs(second, 10)) == 3
    assert store.review_pair(first, 1, "ps", "too late", when=3100.0) is None
    (review,) = store.screen_reviews(third)[("pa", "pb")]
    assert (review.run_id, review.by, review.note) == (first, "Saad", "read: a strong pair")
