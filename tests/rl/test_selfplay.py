"""Self-play data (``baloot selfplay``): the same seed gives the same shards on one process, on
worker processes and on a Ray cluster; every labelled row holds the solver's values of the
true deal and the seat's own observation; a stopped run goes on from its folder to the very
files of a run never stopped; the card counts what is there; bad input is one line."""

from __future__ import annotations

import json
import logging
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from helpers import ENV, WAIT, needs_ray

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from baloot.core.hand import Hand  # noqa: E402
from baloot.core.seats import Seat  # noqa: E402
from baloot.rl.action_space import action_at  # noqa: E402
from baloot.rl.dataset import DatasetFolder, run_selfplay  # noqa: E402
from baloot.rl.observation import SIZE, VERSION, encode  # noqa: E402
from baloot.rl.selfplay import SelfplayConfig, iter_shards  # noqa: E402
from baloot.solver import Mode, values  # noqa: E402
from baloot.view.seat_view import SeatView  # noqa: E402

CONFIG = SelfplayConfig("heuristic", hands=5, seed=7, shard_hands=2)


def tables(shards: Iterator[Any]) -> list[Any]:
    return [pq.read_table(pa.BufferReader(shard.data)) for shard in shards]


def files(shards: Iterator[Any]) -> list[bytes]:
    """The shards' Parquet files (a table's ``equals`` says NaN differs from itself)."""
    return [shard.data for shard in shards]


@pytest.fixture(scope="module")
def config_files() -> list[bytes]:
    """The shards of :data:`CONFIG` made in this process, once for the tests that compare."""
    return files(iter_shards(CONFIG))


def shard_files(folder: Path) -> list[bytes]:
    return [path.read_bytes() for path in sorted((folder / "shards").glob("*.parquet"))]


def shard_tables(folder: Path) -> list[Any]:
    return [pq.read_table(path) for path in sorted((folder / "shards").glob("*.parquet"))]


def baloot(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "baloot", *args],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=timeout,
        check=False,
    )


def test_the_same_seed_gives_the_same_shards_here_and_on_two_processes(
    config_files: list[bytes],
) -> None:
    here = config_files
    assert [pq.read_metadata(pa.BufferReader(f)).num_rows > 0 for f in here] == [True] * 3
    assert files(iter_shards(CONFIG, jobs=2)) == here
    other = files(iter_shards(SelfplayConfig("heuristic", 5, seed=8, shard_hands=2)))
    assert other[0] != here[0]


@needs_ray
def test_a_ray_cluster_gives_the_very_shards_of_one_process(config_files: list[bytes]) -> None:
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    try:
        on_ray = files(iter_shards(CONFIG, cluster="auto"))
    finally:
        ray.shutdown()
    assert on_ray == config_files


def test_each_row_is_the_seats_observation_and_the_solvers_values_of_the_true_deal() -> None:
    (table,) = tables(iter_shards(SelfplayConfig("heuristic", 1, seed=3)))
    rows = table.to_pylist()
    assert table.schema.metadata[b"layout_version"] == str(VERSION).encode()
    rng = random.Random(rows[0]["hand_seed"])
    hand = Hand.new(rng=rng, dealer=Seat(rng.randrange(4)))
    labelled = 0
    for step, row in enumerate(rows):
        seat = hand.to_act
        assert seat is not None and row["step"] == step and row["seat"] == int(seat)
        assert row["phase"] == hand.phase.value
        observation = np.array(row["observation"], np.float32)
        assert observation.shape == (SIZE,)
        assert np.array_equal(observation, encode(SeatView.of(hand, seat)))
        legal = {action_at(i, seat) for i, on in enumerate(row["mask"]) if on}
        assert legal == set(hand.legal_actions())
        if row["values"] is None:
            assert hand.phase.value != "playing"
        else:
            exact = values(hand.copy(), Mode.SCORE)
            got = {action_at(i, seat): v for i, v in enumerate(row["values"]) if not np.isnan(v)}
            assert got == {action: float(v) for action, v in exact.items()}
            labelled += 1
        hand.apply(hand.announced(action_at(row["action"], seat)))
    assert hand.is_over and labelled >= 32
    score = hand.result().score or (0, 0)
    for row in rows:
        team = row["seat"] & 1
        assert (row["score_own"], row["score_other"]) == (score[team], score[1 - team])


def test_the_card_counts_what_the_folder_holds(tmp_path: Path) -> None:
    folder = run_selfplay(CONFIG, tmp_path)
    card = json.loads((tmp_path / "card.json").read_text(encoding="utf-8"))
    rows = shard_tables(tmp_path)
    assert card == folder.card()
    assert card["layout_version"] == VERSION and card["bots"] == "heuristic"
    assert card["seed"] == 7 and card["rules"] == "classic" and card["hands"] == 5
    assert card["decisions"] == sum(t.num_rows for t in rows)
    assert card["labelled"] == sum(t.num_rows - t["values"].null_count for t in rows)
    assert sum(card["phases"].values()) == card["decisions"]
    assert "layout version 1" in (tmp_path / "card.md").read_text(encoding="utf-8")


def test_a_run_interrupted_by_a_signal_goes_on_to_the_files_of_a_whole_run(
    tmp_path: Path,
) -> None:
    args = ["selfplay", "--bots", "heuristic", "--hands", "8", "--shard-hands", "1"]
    process = subprocess.Popen(
        [sys.executable, "-m", "baloot", *args, "--out", str(tmp_path), "--jobs", "2"],
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    )
    deadline = time.monotonic() + WAIT
    while not list((tmp_path / "shards").glob("*.json")) and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=WAIT)
    assert (process.returncode, err) == (143, "baloot: interrupted\n")
    assert not list(tmp_path.rglob("*.tmp"))
    assert 1 <= len(list((tmp_path / "shards").glob("*.json"))) < 8
    again = baloot(*args, "--out", str(tmp_path))
    assert again.returncode == 0, again.stderr
    whole = SelfplayConfig("heuristic", hands=8, seed=0, shard_hands=1)
    assert shard_files(tmp_path) == files(iter_shards(whole))
    card = json.loads((tmp_path / "card.json").read_text(encoding="utf-8"))
    assert card["hands"] == 8 and card["shards"] == 8


def test_a_longer_run_in_the_same_folder_keeps_the_shards_it_has(
    tmp_path: Path, config_files: list[bytes]
) -> None:
    short = SelfplayConfig("heuristic", hands=3, seed=7, shard_hands=2)
    run_selfplay(short, tmp_path)
    first = (tmp_path / "shards" / "00001.parquet").stat().st_mtime_ns
    assert sorted(DatasetFolder(tmp_path, CONFIG).open()) == [1]  # the short last shard goes
    run_selfplay(CONFIG, tmp_path)
    assert (tmp_path / "shards" / "00001.parquet").stat().st_mtime_ns == first
    assert shard_files(tmp_path) == config_files


#: Arguments ``baloot selfplay`` refuses, and what its one line says.
BAD_ARGUMENTS = [
    (["--bots", "nosuch", "--hands", "1"], "baloot: unknown bot 'nosuch'"),
    (["--bots", "cmd:python3 x.py", "--hands", "1"], "only registered bots"),
    (["--bots", "random", "--hands", "0"], "baloot: --hands is from 1 to"),
    (["--bots", "random", "--hands", "1", "--jobs", "0"], "baloot: --jobs must be"),
    (["--bots", "random", "--hands", "1", "--shard-hands", "0"], "--shard-hands is from"),
]


def test_bad_arguments_are_one_line_and_status_2(tmp_path: Path) -> None:
    """The real command, refusing a bot it does not know."""
    args, message = BAD_ARGUMENTS[0]
    result = baloot("selfplay", *args, "--out", str(tmp_path / "out"))
    assert result.returncode == 2
    assert message in result.stderr and result.stderr.count("\n") == 1


@pytest.mark.parametrize(("args", "message"), BAD_ARGUMENTS)
def test_every_bad_argument_is_one_line_and_status_2_in_process(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    """Each refusal, as the command above says it, run in this process."""
    from baloot.__main__ import main

    assert main(["selfplay", *args, "--out", str(tmp_path / "out")]) == 2
    out, err = capfd.readouterr()
    assert out == "" and message in err and err.count("\n") == 1


def test_a_folder_of_another_run_is_refused_in_one_line(tmp_path: Path) -> None:
    assert (
        baloot("selfplay", "--bots", "random", "--hands", "1", "--out", str(tmp_path)).returncode
        == 0
    )
    result = baloot(
        "selfplay", "--bots", "random", "--hands", "1", "--seed", "2", "--out", str(tmp_path)
    )
    assert result.returncode == 2
    assert result.stderr == (
        f"baloot: {tmp_path} holds another run (seed 0, not 2): "
        "use its arguments or another --out\n"
    )


def test_without_pyarrow_the_command_names_the_extra_to_install(tmp_path: Path) -> None:
    blocked = (
        "import sys; sys.modules['pyarrow'] = None; from baloot.__main__ import main; "
        "sys.exit(main(['selfplay', '--bots', 'random', '--hands', '1', "
        f"'--out', {str(tmp_path)!r}]))"
    )
    result = subprocess.run(
        [sys.executable, "-c", blocked], capture_output=True, text=True, env=ENV, timeout=60
    )
    assert result.returncode == 2
    assert result.stderr == "baloot: self-play data needs pyarrow: pip install -e '.[data]'\n"
