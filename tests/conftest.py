"""Hypothesis profiles, the ``--run-slow`` switch, the stores the server tests run on, and a
running server over them.

``HYPOTHESIS_PROFILE=fuzz pytest --run-slow`` runs the long fuzzing; the default ("ci") profile
is deterministic and quick.
"""

from __future__ import annotations

import os
import random
import re
import sys
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import pytest
from argon2 import PasswordHasher
from hypothesis import HealthCheck, settings
from psycopg import sql
from spec_example import ACTIONS, record_text
from starlette.testclient import TestClient

from baloot.server.app import CREATE_RATE, create_app
from baloot.server.hall import Hall
from baloot.server.players import passwords
from baloot.server.storage import Store, open_store

#: The test files sit in a folder per layer and import each other's helpers by module name.
sys.path[:0] = sorted({str(test.parent) for test in Path(__file__).parent.glob("*/test_*.py")})

#: Ray's clusters of the tests, local or joined, all run without its token: a local instance
#: makes one (in the home folder) and a process that used it keeps it, so a cluster a later test
#: joins in the same process, which asks for none, would refuse that process's actors.
os.environ.setdefault("RAY_AUTH_MODE", "disabled")

#: numpy's OpenBLAS runs a thread a core for a product of matrices: where the test workers
#: already share the cores, those threads wait on each other, and a network's evaluation takes
#: about eight times as long as on one thread. Set before numpy is first imported; the tests'
#: children (workers, commands) inherit it.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

#: The servers of the tests, in this process, hash passwords with argon2id at its least cost:
#: at the served cost (64 MiB, three passes) each registration and sign-in takes a fifth of a
#: second of CPU, and the players' tests make hundreds. Hashing and verifying go through the
#: same calls; the servers the tests start as commands keep the served cost.
passwords._HASHER = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)  # type: ignore[misc]

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


def whole_hands() -> settings:
    """The settings of a property each of whose examples plays a whole hand and checks it at
    every step (every view, every action, many worlds): two fifths of the profile's examples,
    20 hands under ``ci`` (the same 20 at every run, ``derandomize``), 1,200 under ``fuzz``."""
    return settings(max_examples=max(20, settings().max_examples * 2 // 5))


#: What ``--fast`` leaves out: the tests that drive Chromium, or need PostgreSQL or Ray, and
#: those that stop a service the others share.
HEAVY = ("browser", "postgresql", "ray", "alone")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--run-slow", action="store_true", default=False, help="also run tests marked slow"
    )
    parser.addoption(
        "--fast",
        action="store_true",
        default=False,
        help="the inner loop: leave out the tests marked " + ", ".join(HEAVY),
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: long fuzzing runs, skipped unless --run-slow")
    config.addinivalue_line("markers", "browser: drives Chromium (from the browser fixture)")
    config.addinivalue_line("markers", "postgresql: needs PostgreSQL (from its fixtures)")
    config.addinivalue_line("markers", "ray: starts Ray")


@pytest.hookimpl(tryfirst=True)  # before ``-m`` reads the marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        _mark_services(item)
    if config.getoption("--fast"):
        heavy = [item for item in items if any(item.get_closest_marker(m) for m in HEAVY)]
        config.hook.pytest_deselected(items=heavy)
        items[:] = [item for item in items if item not in heavy]
    if config.getoption("--run-slow"):
        return
    skip = pytest.mark.skip(reason="slow: give --run-slow to run it")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


def _mark_services(item: pytest.Item) -> None:
    """Marks a test by the services its fixtures start: ``browser`` (Chromium) and
    ``postgresql`` (its URL, or a store on it); ``ray`` is marked where the test starts Ray."""
    names = getattr(item, "fixturenames", ())
    if "browser" in names:
        item.add_marker(pytest.mark.browser)
    callspec = getattr(item, "callspec", None)
    on_postgres = callspec is not None and "postgresql" in (
        callspec.params.get("opener"),
        callspec.params.get("module_server"),
    )
    if "postgres_url" in names or on_postgres:
        item.add_marker(pytest.mark.postgresql)


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


Opener = Callable[[], Store]

#: A hall's waits for tests: bots at once, a third of a second for an absent human, ``next``
#: and the first hand's entropy (a test that gives it sets a longer ``deal_wait``).
FAST: dict[str, Any] = {"bot_pause": 0.0, "absent_wait": 0.3, "next_wait": 0.3, "deal_wait": 0.05}


def _test_deals() -> random.Random:
    """The secrets of a test server's deals, seeded from the test's id: a server deals at
    random, and a test would otherwise meet a different game at every run (one in a few
    hundred tables has a bot call Kawesh before South's first turn, say)."""
    test = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" ", 1)[0]
    # Named without the file's folder: a file moved to another folder meets the same deals.
    return random.Random(re.sub(r"^tests/\w+/", "tests/", test))


@dataclass
class Server:
    """A running app over a database; ``restart`` starts a new one on the same database.
    Its deals are the same at every run of a test (:func:`_test_deals`)."""

    open: Opener
    options: dict[str, Any]
    rate: float = 1000.0  # a test client may act faster than a person
    create_rate: int = CREATE_RATE  # tables a minute a client may create (0: no limit)
    client: TestClient | None = None
    hall: Hall | None = None
    deals: random.Random = field(default_factory=_test_deals)

    def start(self) -> TestClient:
        self.hall = Hall(self.open(), **{"secret_bytes": self.deals.randbytes, **self.options})
        app = create_app(self.hall, rate=self.rate, create_rate=self.create_rate)
        self.client = TestClient(app)
        self.client.__enter__()
        return self.client

    def stop(self) -> None:
        if self.client is not None:
            self.client.__exit__(None, None, None)
            self.client = None

    def restart(self) -> TestClient:
        self.stop()
        return self.start()


@pytest.fixture
def server(opener: Opener) -> Iterator[Server]:
    """A server on SQLite, and on PostgreSQL."""
    running = Server(opener, dict(FAST))
    running.start()
    yield running
    running.stop()


@pytest.fixture(scope="session")
def postgres_url() -> str:
    """The test server's URL; skipped without one, failed instead under ``CI=true``."""
    url = os.environ.get("BALOOT_TEST_POSTGRES")
    ci = os.environ.get("CI") == "true"
    if not url:
        reason = "BALOOT_TEST_POSTGRES is not set: no PostgreSQL server to test against"
        if ci:
            pytest.fail(reason)
        pytest.skip(reason)
    try:
        psycopg.connect(url, connect_timeout=5).close()
    except psycopg.Error as error:
        reason = f"PostgreSQL at BALOOT_TEST_POSTGRES is unreachable: {error}"
        if ci:
            pytest.fail(reason)
        pytest.skip(reason)
    return url


@contextmanager
def _stores(kind: str, folder: Path, request: pytest.FixtureRequest) -> Iterator[Opener]:
    """Opens stores on a database of their own (a file in ``folder``, or a fresh PostgreSQL
    schema), and closes them, and drops the schema, after."""
    opened: list[Store] = []
    if kind == "sqlite":
        path = str(folder / "baloot.db")

        def open_sqlite() -> Store:
            opened.append(open_store(path))
            return opened[-1]

        yield open_sqlite
        for store in opened:
            store.close()
        return
    url: str = request.getfixturevalue("postgres_url")
    schema = f"test_{uuid.uuid4().hex}"

    def open_postgres() -> Store:
        opened.append(open_store(url, schema=schema))
        return opened[-1]

    yield open_postgres
    for store in opened:
        store.close()
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(
            sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema))
        )


@pytest.fixture(params=["sqlite", "postgresql"])
def opener(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Opener]:
    """Opens a store on this test's own database, as often as the test likes."""
    with _stores(request.param, tmp_path, request) as opening:
        yield opening


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def module_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """A server on SQLite, and on PostgreSQL, started once for a module's tests that leave it
    as they found it (use :func:`shared_server`)."""
    with _stores(request.param, tmp_path_factory.mktemp("shared"), request) as opening:
        running = Server(opening, dict(FAST), create_rate=0)  # its tests' tables add up
        running.start()
        yield running
        running.stop()


@pytest.fixture
def shared_server(module_server: Server) -> Server:
    """The module's server, its deals seeded afresh from this test's id (as :func:`server`'s
    are), for a test that changes nothing another test of the module reads."""
    module_server.deals.setstate(_test_deals().getstate())
    return module_server
