"""The store's part that keeps players, sessions, failed sign-ins and seats, on SQLite and on
PostgreSQL."""

from __future__ import annotations

import pytest
from conftest import Opener

from baloot.server.journal import TableConfig
from baloot.server.players.accounts import NameTaken, SeatTaken
from baloot.server.storage import StorageError, Store


@pytest.fixture
def store(opener: Opener) -> Store:
    return opener()


def table(store: Store, table_id: str = "t1") -> None:
    players = {"N": "bot:heuristic", "E": "bot:heuristic", "S": "Saad", "W": "Nora"}
    tokens = {"S": "digest-S", "W": "digest-W"}
    store.create(TableConfig(table_id, players, ("S", "W"), "classic", 7, None, True, tokens, 1.0))


def test_the_schema_has_the_players_tables_at_version_5(store: Store) -> None:
    assert store.version() >= 5
    with store._transaction() as run:
        for name in ("players", "sessions", "login_attempts", "seat_players"):
            assert store._has_table(run, name)


def test_a_player_is_found_by_id_and_by_any_spelling_of_its_name(store: Store) -> None:
    saad = store.register("Saad", "$argon2id$hash", when=10.0)
    assert store.player(saad.id) == saad and saad.created == 10.0
    assert store.player_named("SAAD") == saad == store.player_named("Sаad")
    assert store.credentials("saad") == (saad, "$argon2id$hash")
    assert store.player("nobody") is None and store.player_named("Nora") is None


def test_a_name_is_registered_once_whatever_its_case_or_confusables(store: Store) -> None:
    store.register("Saad", "h", when=1.0)
    for same in ("saad", "SAAD", "Sаad", "Ｓaad"):
        with pytest.raises(NameTaken, match="that name is taken"):
            store.register(same, "h", when=2.0)
    assert store.register("Saad2", "h", when=3.0).name == "Saad2"


def test_a_deleted_player_keeps_its_id_and_seats_and_frees_its_name(store: Store) -> None:
    table(store)
    saad = store.register("Saad", "h", when=1.0)
    store.bind_seat("t1", "S", saad.id)
    store.open_session("s1", saad.id, "csrf", 1.0, 100.0)
    store.delete_player(saad.id, when=5.0)
    assert store.player(saad.id) == type(saad)(saad.id, "", 1.0)
    assert store.seat_players_of("t1") == {"S": saad.id}
    assert store.session("s1", now=2.0) is None
    assert store.credentials("Saad") is None and store.password_hash(saad.id) is None
    with store._transaction() as run:
        assert run("SELECT name_key, password FROM players") == [(f"deleted:{saad.id}", "")]
    assert store.register("Saad", "h", when=6.0).id != saad.id


def test_sessions_end_when_they_expire_or_are_ended(store: Store) -> None:
    saad = store.register("Saad", "h", when=1.0)
    store.open_session("s1", saad.id, "c1", 1.0, 100.0)
    store.open_session("s2", saad.id, "c2", 1.0, 100.0)
    found = store.session("s1", now=50.0)
    assert found is not None and found.player == saad and found.csrf == "c1"
    assert store.session("s1", now=100.0) is None
    store.renew_session("s1", expires=200.0, now=150.0)  # s2 ended at 100: dropped
    assert store.session("s1", now=150.0) is not None
    with store._transaction() as run:
        assert run("SELECT id FROM sessions") == [("s1",)]
    store.end_session("s1")
    assert store.session("s1", now=150.0) is None


def test_a_new_password_ends_every_other_session(store: Store) -> None:
    saad = store.register("Saad", "old", when=1.0)
    for session in ("s1", "s2", "s3"):
        store.open_session(session, saad.id, "c", 1.0, 100.0)
    store.set_password(saad.id, "new", keep_session="s2")
    assert store.password_hash(saad.id) == "new"
    assert [store.session(s, now=2.0) is not None for s in ("s1", "s2", "s3")] == [
        False,
        True,
        False,
    ]


def test_failed_sign_ins_are_counted_in_their_window_and_old_ones_forgotten(
    store: Store,
) -> None:
    store.note_login_failure(["name:saad", "address:1"], when=10.0, forget_before=0.0)
    store.note_login_failure(["name:saad", "address:1"], when=20.0, forget_before=0.0)
    store.note_login_failure(["name:nora", "address:1"], when=30.0, forget_before=15.0)
    found = store.login_failures(["name:saad", "address:1", "name:x"], since=0.0)
    assert found == {"name:saad": [20.0], "address:1": [20.0, 30.0], "name:x": []}
    assert store.login_failures(["address:1"], since=25.0) == {"address:1": [30.0]}


def test_a_seat_is_bound_to_one_account_and_never_taken_over(store: Store) -> None:
    table(store)
    saad = store.register("Saad", "h", when=1.0)
    nora = store.register("Nora", "h", when=1.0)
    assert store.bind_seat("t1", "S", saad.id) is True
    assert store.bind_seat("t1", "S", saad.id) is False  # already the player's
    with pytest.raises(SeatTaken):
        store.bind_seat("t1", "S", nora.id)
    store.bind_seat("t1", "W", nora.id)
    assert store.seat_players_of("t1") == {"S": saad.id, "W": nora.id}
    assert store.seat_players_of("t2") == {}
    with pytest.raises(StorageError, match="unknown table"):
        store.bind_seat("t2", "S", saad.id)
