"""Arena runs that span sessions: ``--out DIR`` keeps every finished pair as it comes, a rerun
with the same arguments plays only the others and sums up all of them (the same verdict as a
run never stopped), other arguments are refused in one line, and nothing is left half
written."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from helpers import ENV, WAIT, wait_for

from baloot.bots.arena import ArenaConfig, ArenaSummary, run_arena
from baloot.core.rules import Rules
from baloot.records.atomic import FolderError

#: What may differ between two runs of the same pairs: how long they took, and where from.
TIMING = ("seconds", "hands_per_second", "resumed")
SIDE_TIMING = ("ms_per_decision", "cpu_ms_per_decision")


def verdict(data: dict[str, Any] | ArenaSummary) -> dict[str, Any]:
    """A summary's JSON without its timings."""
    found = data.to_json() if isinstance(data, ArenaSummary) else data
    out = {k: v for k, v in found.items() if k not in TIMING}
    out["sides"] = {
        label: {k: v for k, v in side.items() if k not in SIDE_TIMING}
        for label, side in found["sides"].items()
    }
    return out


def test_a_rerun_plays_only_the_pairs_not_finished_and_sums_up_all(tmp_path: Path) -> None:
    whole = run_arena(ArenaConfig("random", "heuristic", pairs=6, seed=7, hands=True))
    first = run_arena(
        ArenaConfig("random", "heuristic", pairs=4, seed=7, hands=True, out=str(tmp_path))
    )
    assert first.resumed == 0 and first.pairs == 4
    played: list[int] = []
    again = run_arena(
        ArenaConfig("random", "heuristic", pairs=6, seed=7, hands=True, out=str(tmp_path)),
        jobs=2,
        progress=lambda s: played.append(s.pairs),
    )
    assert again.resumed == 4 and played == [4, 5, 6]
    assert verdict(again) == verdict(whole)
    fewer = run_arena(
        ArenaConfig("random", "heuristic", pairs=3, seed=7, hands=True, out=str(tmp_path))
    )
    assert fewer.resumed == 3 and fewer.pairs == 3
    assert verdict(fewer) == verdict(
        run_arena(ArenaConfig("random", "heuristic", pairs=3, seed=7, hands=True))
    )
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [
        "arena.json",
        *(f"hand-0000{i}-{g}.baloot" for i in range(1, 7) for g in (1, 2)),
        "pairs",
    ]
    assert sorted(p.name for p in (tmp_path / "pairs").iterdir()) == [
        f"0000{i}.json" for i in range(1, 7)
    ]


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"seed": 8}, "seed 7, not 8"),
        ({"bot_b": "random"}, "bot B heuristic, not random"),
        ({"hands": False}, "mode hands, not matches"),
        ({"rules": Rules.preset("federation")}, "rules classic, not federation"),
        ({"cpu_ms": 100}, "--cpu-ms null, not 100"),
    ],
)
def test_a_folder_of_another_run_is_refused_in_one_line(
    tmp_path: Path, change: dict[str, Any], says: str
) -> None:
    config = ArenaConfig("random", "heuristic", pairs=1, seed=7, hands=True, out=str(tmp_path))
    run_arena(config)
    with pytest.raises(FolderError) as error:
        run_arena(replace(config, **change))
    message = str(error.value)
    assert says in message and "holds another run" in message and "\n" not in message


def arena(*args: str) -> list[str]:
    return [sys.executable, "-m", "baloot", "arena", *args]


def test_an_interrupted_run_goes_on_to_the_same_verdict_as_one_never_stopped(
    tmp_path: Path,
) -> None:
    args = ("random", "heuristic", "--matches", "15", "--seed", "3", "--json")
    out = tmp_path / "resumed"
    process = subprocess.Popen(
        arena(*args, "--out", str(out)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    )
    assert wait_for(lambda: len(list(out.glob("pairs/[0-9]*.json"))) >= 3)  # not a temporary
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=WAIT)
    assert process.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    kept = sorted(p.name for p in (out / "pairs").iterdir())  # no temporary file is left
    assert 3 <= len(kept) < 15
    assert not list(out.glob("**/.*.tmp"))  # nothing half written
    for name in kept:  # a finished pair has both its records
        for game in (1, 2):
            assert (out / f"match-{name[:5]}-{game}.baloot").is_file()
    again = subprocess.run(
        arena(*args, "--out", str(out)), capture_output=True, text=True, env=ENV, timeout=120
    )
    assert again.returncode == 0, again.stderr
    resumed = json.loads(again.stdout)
    assert resumed["resumed"] == len(kept) and resumed["pairs"] == 15
    whole = subprocess.run(arena(*args), capture_output=True, text=True, env=ENV, timeout=120)
    assert verdict(resumed) == verdict(json.loads(whole.stdout))


def test_a_temporary_left_by_a_killed_run_is_removed_when_the_run_goes_on(
    tmp_path: Path,
) -> None:
    config = ArenaConfig("random", "heuristic", pairs=2, seed=7, hands=True, out=str(tmp_path))
    run_arena(replace(config, pairs=1))
    leftovers = [tmp_path / ".hand-00002-1.baloot.0badcafe.tmp", tmp_path / "pairs" / ".x.tmp"]
    for leftover in leftovers:
        leftover.write_text("half a recor", encoding="utf-8")
    again = run_arena(config)
    assert again.resumed == 1 and again.pairs == 2
    assert not any(leftover.exists() for leftover in leftovers)
    assert not list(tmp_path.glob("**/.*"))


def test_the_command_refuses_another_runs_folder_in_one_line(tmp_path: Path) -> None:
    first = subprocess.run(
        arena("random", "random", "--hands", "1", "--out", str(tmp_path)),
        capture_output=True,
        text=True,
        env=ENV,
        timeout=60,
    )
    assert first.returncode == 0, first.stderr
    other = subprocess.run(
        arena("random", "random", "--hands", "1", "--seed", "5", "--out", str(tmp_path)),
        capture_output=True,
        text=True,
        env=ENV,
        timeout=60,
    )
    assert other.returncode == 2
    assert other.stderr == (
        f"baloot: {tmp_path} holds another run (seed 0, not 5): "
        "use its arguments or another --out\n"
    )
