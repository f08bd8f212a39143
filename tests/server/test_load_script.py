"""``scripts/load.py`` measures what it says: a table that keeps silent (here, its server frozen
with SIGSTOP for longer than the answer timeout) is counted as an error and waited for, never
left to play on behind a new one, so the tables in play stay the ones asked for."""

from __future__ import annotations

import json
import subprocess
import sys

from helpers import ROOT


def test_a_frozen_server_leaves_no_table_playing_behind_a_new_one() -> None:
    done = subprocess.run(
        [
            sys.executable, str(ROOT / "scripts" / "load.py"), "--tables", "3", "--seconds", "8",
            "--saturate", "--timeout", "1", "--clients", "1", "--bots", "heuristic",
            "--pause-one-at", "2", "--pause-for", "3", "--json",
        ],
        capture_output=True, text=True, timeout=280, cwd=ROOT,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout[done.stdout.index("{") :])
    assert report["paused_at_s"] is not None and "paused server" in done.stderr
    # the pause outlasted the timeout: the silence was counted, not replaced
    assert any(kind.startswith("timeout:") for kind in report["error_kinds"])
    assert report["tables_created"] <= 3 + report["matches_over"]
