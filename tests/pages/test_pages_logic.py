"""The pages' pure logic, run by Node's own test runner (``tests/js/``): the turn that comes to
a seat, the talk a snapshot brings, signed numbers in right-to-left text. Skipped without
``node`` (the pages themselves need none: their browser tests cover them in Chromium)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import WAIT

TESTS = Path(__file__).resolve().parents[1] / "js"


def test_the_pages_pure_logic_passes_its_node_tests() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node to run tests/js/ with")
    ran = subprocess.run(
        [node, "--test", str(TESTS)], capture_output=True, text=True, timeout=WAIT, check=False
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "# fail 0" in ran.stdout, ran.stdout
