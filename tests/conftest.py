"""Hypothesis profiles and the ``--run-slow`` switch.

``HYPOTHESIS_PROFILE=fuzz pytest --run-slow`` runs the long fuzzing; the default ("ci") profile
is deterministic and quick.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from spec_example import ACTIONS, record_text

settings.register_profile(
    "ci",
    max_examples=50,
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "fuzz",
    max_examples=3000,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--run-slow", action="store_true", default=False, help="also run tests marked slow"
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: long fuzzing runs, skipped unless --run-slow")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--run-slow"):
        return
    skip = pytest.mark.skip(reason="slow: give --run-slow to run it")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _autosave_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stopped games autosave under ``$XDG_STATE_HOME``: every test gets a folder of its own,
    so that no test writes into the home directory."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """The record-format example hand, written as a record file."""
    path = tmp_path / "game.baloot"
    path.write_text(record_text(ACTIONS), encoding="utf-8")
    return path
