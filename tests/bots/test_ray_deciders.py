"""Bots' decisions on a Ray cluster that goes away and comes back (``bots.ray_workers``): a
real head of the test's own (``ray start --head``) is killed whole, as a machine that goes;
the decision on it fails at once, one line says so, later decisions are made by local workers
without waiting for their clock, and once the head is back on the same address decisions go
to it again (a second line). Skipped when Ray cannot start here, failed instead under
``CI=true``."""

from __future__ import annotations

import contextlib
import importlib.util
import logging
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import psutil
import pytest
from helpers import WAIT, free_port, wait_for

from baloot.bots.decisions import Decision, DecisionFailed, DecisionTask, Task
from baloot.core.hand import Hand
from baloot.view.seat_view import SeatView

pytestmark = pytest.mark.ray

#: The deciders' log.
LOG = "baloot.bots.ray_workers"
#: What the test's Ray tasks answer, so that a decision tells where it was made.
ON_THE_CLUSTER = "the cluster"


def _unavailable(reason: str) -> None:
    """Skip the test for ``reason``, or fail it under ``CI=true``, where Ray must run."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true and {reason}", pytrace=False)
    pytest.skip(reason)


class Head:
    """A Ray head of one core on a port of its own, its processes killed whole (as its machine
    going away) and started again on the same address."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> str | None:
        """Start it and wait until it runs: None, or why it did not start."""
        self.starts += 1
        output = self.folder / f"head-{self.starts}.log"
        ray = Path(sys.executable).with_name("ray")
        with output.open("wb") as sink:
            self.process = subprocess.Popen(
                [
                    str(ray if ray.exists() else "ray"),
                    *("start", "--head", "--block", "--num-cpus=1", "--disable-usage-stats"),
                    f"--port={self.port}",
                    "--include-dashboard=false",
                    f"--dashboard-port={free_port()}",
                    f"--dashboard-agent-listen-port={free_port()}",
                    f"--temp-dir={self.folder / 'ray'}",
                ],
                stdout=sink,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        process = self.process

        def settled() -> bool:
            return process.poll() is not None or b"Ray runtime started" in output.read_bytes()

        if wait_for(settled) and process.poll() is None:
            return None
        tail = output.read_text(errors="replace").strip().splitlines()[-3:]
        self.kill()
        return f"`ray start --head` did not start a head: {' / '.join(tail) or 'no output'}"

    def kill(self) -> None:
        """Kill every process of the head at once, its workers too (the raylet starts them in
        sessions of their own)."""
        if self.process is None:
            return
        with contextlib.suppress(psutil.NoSuchProcess):
            for process in psutil.Process(self.process.pid).children(recursive=True):
                with contextlib.suppress(psutil.NoSuchProcess):
                    process.kill()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        self.process = None


@pytest.fixture
def head() -> Iterator[Head]:
    """A running head, killed after the test (without Ray's token, as every cluster of the
    tests: see conftest.py)."""
    if importlib.util.find_spec("ray") is None:
        _unavailable("Ray is an optional extra: pip install -e '.[ray]' (the dev extra has it)")
    # A short folder: Ray's sockets live under it, and a socket's path is 107 bytes at most.
    folder = Path(tempfile.mkdtemp(prefix="baloot-ray-"))
    running = Head(folder)
    why = running.start()
    if why is not None:
        shutil.rmtree(folder, ignore_errors=True)
        _unavailable(why)
    yield running
    running.kill()
    shutil.rmtree(folder, ignore_errors=True)


def on_the_cluster() -> Callable[[Task[Any]], Any]:
    """What the test's Ray tasks run (a function made here travels by value, as Ray's
    workers cannot import the tests)."""

    def answer(task: Task[Any]) -> Any:
        return ON_THE_CLUSTER

    return answer


def made_by(deciders: Any, seconds: float = WAIT) -> str:
    """Where a decision of ``seconds`` of clock was made: on the cluster or a local worker
    (which decides it for real); a failure is raised."""
    hand = Hand.new(rng=random.Random(1))
    view, legal = SeatView.of(hand, hand.to_act), tuple(hand.legal_actions())
    task = DecisionTask("heuristic", view, legal, random.Random(2).getstate(), seconds)
    answer: object = deciders.submit(task).result(timeout=WAIT + seconds)
    if isinstance(answer, Decision):
        return "a local worker"
    return str(answer)


def said(records: list[logging.LogRecord], words: str) -> list[str]:
    """The deciders' log lines holding ``words``."""
    return [r.getMessage() for r in records if r.name == LOG and words in r.getMessage()]


def test_a_lost_ray_cluster_is_said_once_decided_around_locally_and_rejoined(
    head: Head, caplog: pytest.LogCaptureFixture
) -> None:
    import ray

    from baloot.bots.ray_workers import RayDeciders

    caplog.set_level(logging.INFO, logger=LOG)
    assert not ray.is_initialized(), "a test before this one left Ray joined"
    deciders = RayDeciders(head.address, runner=on_the_cluster(), local_workers=1)
    try:
        assert made_by(deciders) == ON_THE_CLUSTER

        head.kill()
        start = time.monotonic()
        with pytest.raises(DecisionFailed, match=r"^the Ray cluster went away: "):
            made_by(deciders)  # in flight as the cluster goes: failed at once
        assert [made_by(deciders) for _ in range(3)] == ["a local worker"] * 3
        assert time.monotonic() - start < WAIT, "the decisions waited for their clock"
        gone = said(caplog.records, "went away")
        assert len(gone) == 1, gone
        assert re.fullmatch(
            rf"bots: the Ray cluster at {re.escape(head.address)} went away "
            r"\((it did not answer in 2 s|its probe failed: \w+)\): "
            r"deciding on 1 local worker until it is back",
            gone[0],
        )

        assert head.start() is None
        assert wait_for(lambda: made_by(deciders) == ON_THE_CLUSTER), "never rejoined"
        assert said(caplog.records, "went away") == gone
        assert said(caplog.records, "is back:") == [
            f"bots: the Ray cluster at {head.address} is back: deciding on it again"
        ]
    finally:
        deciders.close()
    assert not ray.is_initialized()


def test_joining_a_ray_cluster_leaves_the_process_its_sigterm_handler(head: Head) -> None:
    from baloot.bots.ray_workers import RayDeciders

    def stop(signum: int, frame: FrameType | None) -> None:
        raise AssertionError("not sent")

    kept = signal.signal(signal.SIGTERM, stop)
    try:
        deciders = RayDeciders(head.address, local_workers=1)
        try:
            assert signal.getsignal(signal.SIGTERM) is stop  # a server's clean stop
        finally:
            deciders.close()
    finally:
        signal.signal(signal.SIGTERM, kept)
