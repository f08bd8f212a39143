"""The pages' logic, run by Node's own test runner (``tests/js/*.test.mjs``, each module's
tests beside the others): the protocol's words, the connection, the fair deals, the score
sheet's figures, the pacer, the table page's controller, the turn's alert, the collusion
screen's figures. Skipped without ``node``, except under ``CI=true``, where a missing
``node`` fails (the pages themselves need none: their browser tests cover them in
Chromium)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import WAIT

TESTS = Path(__file__).resolve().parents[1] / "js"
#: The modules of the pages that have tests of their own, by the name of their test file.
TESTED = (
    "protocol",
    "net",
    "fair",
    "sheet",
    "motion",
    "table-controller",
    "sound",
    "pages",
    "invite",
    "session",
    "screen-figures",
)


def test_each_tested_module_has_its_test_file() -> None:
    files = {path.name.removesuffix(".test.mjs") for path in TESTS.glob("*.test.mjs")}
    assert set(TESTED) <= files, sorted(set(TESTED) - files)


def test_the_pages_logic_passes_its_node_tests() -> None:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("CI=true and no node to run tests/js/ with", pytrace=False)
        pytest.skip("no node to run tests/js/ with")
    files = sorted(str(path) for path in TESTS.glob("*.test.mjs"))
    ran = subprocess.run(
        [node, "--test", *files], capture_output=True, text=True, timeout=WAIT, check=False
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "# fail 0" in ran.stdout, ran.stdout
    passed = re.search(r"^# pass (\d+)$", ran.stdout, re.M)
    assert passed is not None and int(passed.group(1)) > 0, ran.stdout
