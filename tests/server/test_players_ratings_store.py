"""Ratings as the store keeps them, on SQLite and on PostgreSQL: a match is rated once, in the
transaction that ends it; bots keep their fixed ratings; a guest makes a match unrated; a
table closed unfinished costs the seat that left, alone; recomputing from the stored
matches gives the ratings kept.

The accounts' rows are inserted directly (the accounts' own API makes them in the server).
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from conftest import Opener
from rating_helpers import FOUR, add_player, add_table, played

from baloot.__main__ import main as baloot_main
from baloot.core.seats import Seat
from baloot.server.journal import Step, StepKind, TableConfig
from baloot.server.players.ratings import (
    BOTS,
    PROVISIONAL_MATCHES,
    START,
    Skill,
    plan,
    rate,
)
from baloot.server.storage import Store


def finish(store: Store, table_id: str, winner: str, when: float, seed: int = 1) -> None:
    record, _ = played(seed)
    store.finish(table_id, record, {"winner": winner}, when)


@pytest.fixture
def store(opener: Opener) -> Store:
    opened = opener()
    for player_id in FOUR.values():
        add_player(opened, player_id, player_id.upper())
    return opened


def test_a_win_raises_both_partners_and_lowers_both_opponents() -> None:
    seats = dict(FOUR)
    after = rate(seats, {}, "NS")
    assert after["pn"] == after["ps"] and after["pn"].mu > START.mu
    assert after["pe"] == after["pw"] and after["pe"].mu < START.mu
    assert all(skill.matches == 1 and skill.sigma < START.sigma for skill in after.values())


def test_a_rating_is_provisional_until_enough_matches_and_a_small_sigma() -> None:
    assert START.provisional
    assert Skill(30.0, 4.0, PROVISIONAL_MATCHES - 1).provisional
    assert Skill(30.0, 7.5, PROVISIONAL_MATCHES).provisional
    assert not Skill(30.0, 4.0, PROVISIONAL_MATCHES).provisional
    assert Skill(30.0, 4.0).ordinal == 18.0


def test_bots_keep_their_fixed_ratings_and_a_stronger_bot_beaten_is_worth_more() -> None:
    against_easy = rate({"N": "p", "S": "bot:easy", "E": "bot:easy", "W": "bot:easy"}, {}, "NS")
    against_hard = rate({"N": "p", "S": "bot:easy", "E": "bot:hard", "W": "bot:hard"}, {}, "NS")
    assert list(against_easy) == list(against_hard) == ["p"]
    assert against_hard["p"].mu > against_easy["p"].mu > START.mu
    assert BOTS["hard"] > BOTS["easy"]


def test_a_guest_another_bot_or_custom_rules_leave_a_match_unrated() -> None:
    def config(players: dict[str, str], rules: str | dict[str, object] = "classic") -> TableConfig:
        humans = tuple(seat for seat, label in players.items() if not label.startswith("bot:"))
        return TableConfig("t", players, humans, rules, 7, None, False, {}, 0.0)

    four = {seat: seat for seat in "NESW"}
    assert plan(config(four), FOUR, "NS", None) is not None
    assert plan(config(four), {"N": "pn", "S": "ps", "E": "pe"}, "NS", None) is None
    with_program = {**four, "W": "bot:cmd:python3 bot.py"}
    assert plan(config(with_program), FOUR, "NS", None) is None
    assert plan(config(four, {"preset": "classic"}), FOUR, "NS", None) is None
    assert plan(config(four), {**FOUR, "W": "pn"}, "NS", None) is None


def test_finishing_a_match_rates_it_in_the_same_transaction_and_keeps_the_changes(
    store: Store,
) -> None:
    add_table(store, "t1", FOUR)
    finish(store, "t1", "NS", 2000.0)
    north, east = store.ratings_of("pn")["classic"], store.ratings_of("pe")["classic"]
    assert north.mu > START.mu > east.mu and north.matches == east.matches == 1
    (change,) = store.rating_changes("pn")
    assert (change.table_id, change.preset, change.before, change.at) == (
        "t1",
        "classic",
        START,
        2000.0,
    )
    assert change.after == north


def test_a_match_is_rated_once_however_often_it_is_ended(store: Store) -> None:
    add_table(store, "t1", FOUR)
    finish(store, "t1", "NS", 2000.0)
    finish(store, "t1", "NS", 2001.0)
    store.close_table("t1", 2002.0)
    assert store.ratings_of("pn")["classic"].matches == 1
    assert len(store.rating_changes("pn")) == 1


def test_two_stores_ending_one_match_at_once_rate_it_once(opener: Opener) -> None:
    first = opener()
    for player_id in FOUR.values():
        add_player(first, player_id, player_id.upper())
    add_table(first, "t1", FOUR)
    second = opener()
    record, _ = played(1)
    ends = [
        threading.Thread(target=store.finish, args=("t1", record, {"winner": "NS"}, 2000.0))
        for store in (first, second)
    ]
    for end in ends:
        end.start()
    for end in ends:
        end.join()
    assert first.ratings_of("pn")["classic"].matches == 1


def test_a_table_with_bots_rates_its_accounts_and_never_the_bots(store: Store) -> None:
    add_table(store, "t1", {"S": "ps"}, bots={"N": "medium", "E": "easy", "W": "hard"})
    finish(store, "t1", "EW", 2000.0)
    assert set(store.ratings_of("ps")) == {"classic"}
    assert store.ratings_of("ps")["classic"].mu < START.mu
    with store._transaction() as run:
        assert run("SELECT COUNT(*) FROM ratings")[0][0] == 1


def test_a_guest_at_the_table_leaves_the_match_unrated(store: Store) -> None:
    add_table(store, "t1", {"N": "pn", "S": "ps", "E": "pe"})
    finish(store, "t1", "NS", 2000.0)
    assert store.ratings_of("pn") == {}


def test_a_match_is_rated_in_its_preset(store: Store) -> None:
    add_table(store, "t1", FOUR, rules="federation")
    finish(store, "t1", "NS", 2000.0)
    assert set(store.ratings_of("pn")) == {"federation"}


def steps_where_north_left() -> list[Step]:
    """North acted first and never again; the others acted after."""
    return [
        Step(StepKind.ACT, 1, Seat.N, "c1", ("N pass",)),
        Step(StepKind.ACT, 2, Seat.W, "c2", ("W pass",)),
        Step(StepKind.ACT, 3, Seat.S, "c3", ("S pass",)),
        Step(StepKind.ACT, 4, Seat.E, "c4", ("E pass",)),
        Step(StepKind.SAY, 5, Seat.S, "c5", text="North?"),
        Step(StepKind.SAY, 6, Seat.E, "c6", text="gone"),
        Step(StepKind.SAY, 7, Seat.W, "c7", text="yes"),
    ]


@pytest.mark.parametrize("closing", ["close_table", "close_idle"])
def test_a_table_closed_unfinished_is_a_loss_for_the_seat_that_left_alone(
    store: Store, closing: str
) -> None:
    add_table(store, "t1", FOUR)
    store.append("t1", steps_where_north_left(), first=0)
    if closing == "close_table":
        store.close_table("t1", 3000.0)
    else:
        assert store.close_idle(before=5000.0, when=3000.0) == ["t1"]
        store.close_table("t1", 3000.0)  # the node that served it closes it again
    north = store.ratings_of("pn")["classic"]
    assert north.mu < START.mu and north.matches == 1
    for partner_or_opponent in ("ps", "pe", "pw"):
        assert store.ratings_of(partner_or_opponent) == {}
    assert [change.table_id for change in store.rating_changes("pn")] == ["t1"]


def test_a_table_closed_before_anyone_decided_anything_is_not_rated(store: Store) -> None:
    add_table(store, "t1", FOUR)
    store.append("t1", [Step(StepKind.SAY, 1, Seat.N, "c1", text="hello")], first=0)
    store.close_table("t1", 3000.0)
    assert all(store.ratings_of(player) == {} for player in FOUR.values())


def several_matches(store: Store) -> None:
    """Five finished matches and an abandoned one, some with bots, in two presets."""
    add_player(store, "px", "PX")
    for n, winner in enumerate(["NS", "EW", "NS", "NS", "EW"]):
        add_table(store, f"m{n}", FOUR, rules="classic" if n % 2 else "federation")
        finish(store, f"m{n}", winner, 2000.0 + n)
    add_table(store, "b1", {"S": "px", "N": "pn"}, bots={"E": "hard", "W": "easy"})
    finish(store, "b1", "NS", 2100.0)
    add_table(store, "a1", {"S": "px", "N": "pn"}, bots={"E": "hard", "W": "easy"})
    store.append("a1", [Step(StepKind.ACT, 1, Seat.S, "c1", ("S pass",))], first=0)
    store.close_table("a1", 2200.0)


def test_recomputing_every_rating_from_the_stored_matches_gives_the_ratings_kept(
    store: Store,
) -> None:
    several_matches(store)
    changes, same = store.recompute()
    assert same
    kept = {player: store.rating_changes(player) for player in (*FOUR.values(), "px")}
    assert sorted(changes, key=lambda c: (c.at, c.table_id, c.player_id)) == sorted(
        (c for cs in kept.values() for c in cs), key=lambda c: (c.at, c.table_id, c.player_id)
    )


def test_recompute_reports_ratings_that_differ_and_writes_the_recomputed_ones(
    store: Store,
) -> None:
    several_matches(store)
    with store._transaction() as run:
        run("UPDATE ratings SET mu = mu + 1 WHERE player_id = 'pn'")
    assert not store.recompute()[1]
    changes, _ = store.recompute()
    store.replace_ratings(changes)
    assert store.recompute()[1]


def test_the_ratings_command_recomputes_and_exits_0_when_equal(
    opener: Opener, capsys: pytest.CaptureFixture[str]
) -> None:
    store = opener()
    for player_id in FOUR.values():
        add_player(store, player_id, player_id.upper())
    several_matches(store)
    command = ["ratings", "recompute", "--db", target_of(store)]
    assert baloot_main(command) == 0
    assert "7 rated matches, 5 players: the recomputed ratings equal those kept" in (
        capsys.readouterr().out
    )
    with store._transaction() as run:
        run("UPDATE ratings SET sigma = sigma + 1")
    assert baloot_main(command) == 1
    assert "differ" in capsys.readouterr().out
    assert baloot_main([*command, "--write"]) == 0
    assert store.recompute()[1]


def test_the_ratings_command_refuses_a_database_that_is_not_there(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = str(tmp_path / "none.db")
    assert baloot_main(["ratings", "recompute", "--db", missing]) == 2
    assert capsys.readouterr().err == f"baloot ratings: no SQLite database at {missing}\n"


def target_of(store: Store) -> str:
    """The ``--db`` of the store: its file, or its URL in the test's own schema."""
    if not store._postgres:
        return store._target
    with store._transaction() as run:
        schema = str(run("SELECT current_schema()")[0][0])
    return f"{store._target}?options=-csearch_path%3D{schema}"
