"""The collusion screen over stored matches, on SQLite and on PostgreSQL: a pair that reads
the true deal for its leads is listed, the pairs that play fair are not; the same store gives
the same screen; ``--keep`` keeps it for the operators' page; a bad database or a bad number is
refused in one line, exit 2.

The cheating pair's bot (``screen_helpers.cheat``) exists in these tests alone. Each match's
blind leads are computed once for both stores (the records are the same)."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest
from conftest import Opener
from screen_helpers import TRICKS, played, stored
from test_players_ratings_store import target_of

from baloot.__main__ import main as baloot_main
from baloot.analysis.blind import Blind, Budget, blind_decisions
from baloot.core.seats import Seat
from baloot.records.record import Record, loads
from baloot.records.writer import dumps
from baloot.server.players import collusion
from baloot.server.players.collusion import PairScore, Thresholds, pairs_of, score

BUDGET = ["--worlds", "4", "--tricks", str(TRICKS), "--seed", "7"]


@functools.cache
def _blinds(key: str, budget: Budget, text: str) -> list[Blind]:
    """The blind leads of a match, computed once for both stores."""
    return blind_decisions(loads(text), key, budget)


@pytest.fixture
def cached(monkeypatch: pytest.MonkeyPatch) -> None:
    """The screen's blind leads of each match computed once for every test and store."""

    def computed_once(record: Record, key: str, budget: Budget) -> list[Blind]:
        return _blinds(key, budget, dumps(record))

    monkeypatch.setattr(collusion, "blind_decisions", computed_once)


@pytest.mark.usefixtures("cached")
def test_the_screen_lists_the_pair_that_reads_the_deal_and_no_other(
    opener: Opener, capsys: pytest.CaptureFixture[str]
) -> None:
    store = opener()
    stored(store)
    command = ["screen", "--db", target_of(store), "--min-hands", "5", *BUDGET]
    assert baloot_main([*command, "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert [entry["players"] for entry in found["listed"]] == [["c1", "c2"]]
    (cheats,) = found["listed"]
    assert cheats["accuracy"] == 1.0 and cheats["hands"] >= 5
    assert cheats["others_accuracy"] < 0.7
    population = found["population"]
    assert population["pairs"] == 4 and population["matches"] == 2
    assert found["budget"] == {"worlds": 4, "tricks": TRICKS, "seed": 7}
    assert baloot_main([*command, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == found
    assert baloot_main(command) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("2 matches with partners, 4 pairs")
    assert lines[-1].startswith("  c1 + c2: ") and "= 100.0 %" in lines[-1]
    assert baloot_main([*command[:4], "1000", *BUDGET]) == 0
    assert capsys.readouterr().out.splitlines()[-1].endswith(": none")
    assert store.latest_screen() is None  # kept only when asked


@pytest.mark.usefixtures("cached")
def test_a_kept_screen_is_the_run_the_operators_page_reads(
    opener: Opener, capsys: pytest.CaptureFixture[str]
) -> None:
    store = opener()
    stored(store)
    command = ["screen", "--db", target_of(store), "--min-hands", "5", *BUDGET, "--keep"]
    assert baloot_main(command) == 0
    kept = store.latest_screen()
    assert kept is not None
    said = capsys.readouterr().out.splitlines()
    assert said[-1] == f"kept as run {kept.id}: operators read it at /operator/screen"
    assert said[-2].startswith("  c1 + c2: ")
    population = kept.body["population"]
    assert (population["pairs"], population["listed"], population["matches"]) == (4, 1, 2)
    assert sum(population["histogram"]) == 4 and population["hands"] >= 5
    assert kept.body["budget"] == {"worlds": 4, "tricks": TRICKS, "seed": 7}
    rows = store.screen_pairs(kept.id, 10)
    assert (rows[0].n, rows[0].names, rows[0].pair.listed) == (1, ("C1", "C2"), True)
    assert len(rows) == 4 and not any(row.pair.listed for row in rows[1:])
    assert baloot_main([*command, "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    latest = store.latest_screen()
    assert latest is not None and again["kept"] == latest.id != kept.id


def test_the_same_record_gives_the_same_blind_leads() -> None:
    record = loads(played(1, ()))
    record.hands = record.hands[:3]  # the first hands of the match: each is its own seeds'
    budget = Budget(worlds=2, tricks=1, seed=3)
    first = blind_decisions(record, "t1", budget)
    assert first == blind_decisions(record, "t1", budget)
    assert first and all(blind.trick == 1 for blind in first)


def test_pairs_are_partners_bound_to_two_accounts() -> None:
    assert pairs_of({"N": "a", "S": "b", "E": "c", "W": "d"}) == {
        "N": ("a", "b"),
        "S": ("a", "b"),
        "E": ("c", "d"),
        "W": ("c", "d"),
    }
    assert pairs_of({"N": "a", "S": "a", "E": "c"}) == {}


def test_a_pair_is_listed_only_past_its_hands_and_a_threshold() -> None:
    def leads(hits: int, misses: int, seat: Seat) -> list[Blind]:
        return [Blind(n, 1, seat, 1, n <= hits) for n in range(1, hits + misses + 1)]

    seats = {"N": "a", "S": "b", "E": "c", "W": "d"}
    matches = [("m", seats, leads(40, 10, Seat.N) + leads(20, 20, Seat.E))]
    pairs, listed = score(matches, Thresholds(min_hands=30))
    assert [pair.players for pair in pairs] == [("a", "b"), ("c", "d")]
    assert [entry[0].players for entry in listed] == [("a", "b")]
    assert score(matches, Thresholds(min_hands=51))[1] == []
    assert score(matches, Thresholds(min_hands=30, z=9.0, accuracy=0.9))[1] == []
    assert PairScore(("a", "b")).z(0.5) == 0.0


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--min-hands", "0"], "--min-hands must be a whole number of 1 or more, not '0'"),
        (["--min-hands", "many"], "--min-hands must be a whole number of 1 or more, not 'many'"),
        (["--z", "nan"], "--z must be a number, not 'nan'"),
        (["--accuracy", "1.5"], "--accuracy must be a share from 0 to 1, not '1.5'"),
        (["--worlds", "-3"], "--worlds must be a whole number of 1 or more, not '-3'"),
        (["--tricks", "9"], "--tricks must be a whole number from 1 to 8, not '9'"),
    ],
)
def test_a_bad_number_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str], said: str
) -> None:
    assert baloot_main(["screen", "--db", str(tmp_path / "x.db"), *options]) == 2
    assert capsys.readouterr().err == f"baloot screen: {said}\n"


def test_a_database_that_is_not_there_or_not_a_database_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = str(tmp_path / "none.db")
    assert baloot_main(["screen", "--db", missing]) == 2
    assert capsys.readouterr().err == f"baloot screen: no SQLite database at {missing}\n"
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"not a database at all" * 100)
    assert baloot_main(["screen", "--db", str(garbage)]) == 2
    error = capsys.readouterr().err
    assert error.startswith("baloot screen: ") and error.count("\n") == 1
