"""The arena on a Ray cluster (``--ray``): on a local instance the tests start (2 CPUs), the
pairs run as Ray tasks and give exactly the verdict of a run on one process for the same
seed; an external bot plays there too, and the output folder is kept by the driver. Without
Ray installed, ``--ray`` says in one line which extra to install (tested always)."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import ENV, ROOT, free_port, needs_ray

from baloot.bots.arena import ArenaConfig, ArenaSummary, run_arena

SAMPLE = str(ROOT / "examples" / "sample_bot.py")


def verdict(summary: ArenaSummary) -> dict[str, Any]:
    """A summary's JSON without its timings."""
    data = summary.to_json()
    for key in ("seconds", "hands_per_second"):
        del data[key]
    for side in data["sides"].values():
        del side["ms_per_decision"], side["cpu_ms_per_decision"]
    return data


@pytest.fixture(scope="module")
def cluster() -> Iterator[None]:
    """A local Ray instance of 2 CPUs, for this module's tests."""
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    yield
    ray.shutdown()


@needs_ray
def test_a_ray_cluster_gives_exactly_the_verdict_of_one_process(cluster: None) -> None:
    config = ArenaConfig("random", "heuristic", pairs=6, seed=11)
    assert verdict(run_arena(config, cluster="auto")) == verdict(run_arena(config))


@needs_ray
def test_an_external_bot_plays_on_the_cluster_and_the_driver_keeps_the_folder(
    cluster: None, tmp_path: Path
) -> None:
    config = ArenaConfig(SAMPLE, "random", pairs=3, seed=2, hands=True, out=str(tmp_path))
    on_ray = run_arena(config, cluster="auto")
    assert on_ray.failures == [] and on_ray.pairs == 3
    assert len(list((tmp_path / "pairs").iterdir())) == 3
    assert len(list(tmp_path.glob("hand-*.baloot"))) == 6
    assert verdict(on_ray) == verdict(run_arena(ArenaConfig(SAMPLE, "random", 3, 2, hands=True)))


def test_without_ray_the_option_names_the_extra_to_install(tmp_path: Path) -> None:
    blocked = (
        "import sys; sys.modules['ray'] = None; from baloot.__main__ import main; "
        "sys.exit(main(['arena', 'random', 'random', '--hands', '1', '--ray', 'local']))"
    )
    result = subprocess.run(
        [sys.executable, "-c", blocked], capture_output=True, text=True, env=ENV, timeout=60
    )
    assert result.returncode == 2
    assert result.stderr == (
        "baloot: --ray needs Ray, an optional extra: pip install -e '.[ray]'\n"
    )


def test_jobs_are_refused_for_a_cluster_that_is_not_local() -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "baloot",
            "arena",
            "random",
            "random",
            "--ray",
            "auto",
            "--jobs",
            "2",
        ],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=60,
    )
    assert result.returncode == 2 and "--jobs is for one machine" in result.stderr


@needs_ray
def test_the_command_starts_a_local_instance_and_ends_it(tmp_path: Path) -> None:
    result = subprocess.run(
        [
            *(sys.executable, "-m", "baloot", "arena", "random", "random"),
            *("--hands", "4", "--seed", "5", "--json", "--ray", "local", "--jobs", "2"),
        ],
        capture_output=True,
        text=True,
        env={**ENV, "RAY_ADDRESS": "127.0.0.1:1"},  # "local" starts one whatever this says
        timeout=120,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["pairs"] == 4
    local = run_arena(ArenaConfig("random", "random", pairs=4, seed=5, hands=True))
    assert data["points_per_hand"] == local.to_json()["points_per_hand"]


@needs_ray
def test_an_address_nothing_answers_on_is_one_line_at_once() -> None:
    port = free_port()
    result = subprocess.run(
        [sys.executable, "-m", "baloot", "arena", "random", "random", "--ray", f"127.0.0.1:{port}"],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr.startswith(f"baloot: cannot join the Ray cluster at 127.0.0.1:{port}: ")
    assert result.stderr.count("\n") == 1
