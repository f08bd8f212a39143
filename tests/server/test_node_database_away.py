"""PostgreSQL stopped and started under a running ``baloot serve`` node: while it is away the
node says so, and play goes on within 10 s of its return, nothing acknowledged lost. The test
stops the server every other storage test shares, so it runs alone (marked ``alone``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from helpers import WAIT, wait_for
from test_nodes import (
    Node,
    create,
    database,  # noqa: F401 - a fixture
    join,
    rows,
    start_node,
    stop_node,
    watched,
)
from websockets.exceptions import ConnectionClosed

# --------------------------------------------------------------------------- the database away

#: How soon play goes on once the database is back (the promise: 10 s).
RESUMES_WITHIN = 10.0


def postgres_cluster(url: str) -> list[str]:
    """The Debian cluster (version and name) that serves ``url``, to stop and start it with
    ``pg_ctlcluster``; skipped when that cannot be done here, failed instead under
    ``CI=true``, as the other PostgreSQL tests are."""
    parts = urlsplit(url)
    port = str(parts.port or 5432)
    problem = None
    if shutil.which("pg_lsclusters") is None or shutil.which("pg_ctlcluster") is None:
        problem = "no Debian PostgreSQL cluster tools (pg_lsclusters, pg_ctlcluster)"
    elif os.geteuid() != 0:
        problem = "pg_ctlcluster stops and starts PostgreSQL as root only"
    elif parts.hostname not in ("127.0.0.1", "localhost", "::1"):
        problem = f"PostgreSQL runs on another host ({parts.hostname})"
    else:
        listed = subprocess.run(
            ["pg_lsclusters", "--no-header"], capture_output=True, text=True, check=True
        ).stdout
        for line in listed.splitlines():
            version, name, listens, status = line.split()[:4]
            if listens == port and status.startswith("online"):
                return [version, name]
        problem = f"no cluster of pg_lsclusters is online on port {port}"
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true and {problem}")
    pytest.skip(problem)


def status_of(node: Node, path: str) -> int:
    """The HTTP status of ``GET path`` at the node (0: it did not answer)."""
    try:
        with urllib.request.urlopen(node.url + path, timeout=WAIT) as response:
            return int(response.status)
    except urllib.error.HTTPError as answer:
        return answer.code
    except OSError:
        return 0


def play_through(node: Node, table_id: str, token: str, actions: int) -> dict[str, str]:
    """Play ``actions`` actions of South as a page would, whatever happens to the node's
    database meanwhile: a socket closed before its action was answered connects again and
    sends the same action (the same id) until it is acknowledged. The actions acknowledged."""
    player, _ = join([node], table_id, token)
    pending: tuple[str, str] | None = None
    acked: dict[str, str] = {}
    while len(acked) < actions:
        try:
            if pending is not None:
                id_, action = pending
                player.send({"type": "act", "id": id_, "action": action})
                player.await_answer(id_)
                acked[id_], pending, player.last = action, None, {}
            elif player.my_turn():
                pending = player.new_id("r"), player.last["view"]["legal"][0]
            elif player.last.get("type") == "hand-over":
                player.send({"type": "next", "id": player.new_id("n")})
                player.last = {}
            else:
                player.receive()
        except ConnectionClosed:
            player.ws.close()
            player, _ = join([node], table_id, token)
    player.ws.close()
    return acked


@pytest.mark.alone  # it stops the PostgreSQL server every other storage test shares
def test_play_resumes_within_10_s_of_the_database_coming_back(
    database: str,  # noqa: F811
    postgres_url: str,
    tmp_path: Path,
) -> None:
    """PostgreSQL stops under a running node (a table of bots, a table with a human) and
    starts again: while it is away the node says so (503 for what it cannot read, and the
    page of the bots' table says that the server cannot reach its database), and within 10 s
    of its coming back the node, never restarted, plays on: the bots' table read back from
    its journal, the human's actions acknowledged once each, none lost."""
    from playwright.sync_api import expect

    cluster = postgres_cluster(postgres_url)
    node = start_node("a", database, tmp_path, "--bot-pause", "0.1")
    try:
        bots = create(node, seats={})["table"]
        created = create(node)
        table_id, token = created["table"], created["seats"]["S"]["token"]
        acked = play_through(node, table_id, token, 2)

        def steps_of(table: str) -> int:
            return int(
                rows(database, "SELECT COUNT(*) FROM steps WHERE table_id = %s", table)[0][0]
            )

        assert wait_for(lambda: steps_of(bots) >= 3)
        with watched(f"{node.url}/t/{bots}") as page:
            subprocess.run(["pg_ctlcluster", *cluster, "stop"], check=True, timeout=WAIT)
            try:  # the bots' next step fails: the table is let go, and is read from storage
                assert wait_for(lambda: status_of(node, f"/api/tables/{bots}") == 503)
                if page is not None:
                    status = page.locator("#status")
                    expect(status).to_contain_text("cannot reach its database", timeout=WAIT * 1000)
            finally:
                subprocess.run(["pg_ctlcluster", *cluster, "start"], check=True, timeout=WAIT)
            back, stopped_at = time.monotonic(), steps_of(bots)
            assert wait_for(lambda: steps_of(bots) >= stopped_at + 3, RESUMES_WITHIN), (
                f"the bots did not play on {time.monotonic() - back:.1f} s after the database"
            )
            if page is not None:
                expect(status).not_to_contain_text("database", timeout=WAIT * 1000)
        acked |= play_through(node, table_id, token, 2)
        assert node.get(f"/api/tables/{bots}")["status"] == "playing"
    finally:
        stop_node(node)
    assert "Traceback" not in node.log.read_text(errors="replace"), node.log.read_text()
    for table in (bots, table_id):
        numbers = [
            n
            for (n,) in rows(database, "SELECT n FROM steps WHERE table_id = %s ORDER BY n", table)
        ]
        assert numbers == list(range(len(numbers)))
    by_id: dict[str, list[list[str]]] = {}
    for (body,) in rows(database, "SELECT body FROM steps WHERE table_id = %s", table_id):
        step = json.loads(body)
        if step["kind"] == "act":
            by_id.setdefault(step["id"], []).append(step["actions"])
    assert {id_: by_id.get(id_) for id_ in acked} == {
        id_: [[action]] for id_, action in acked.items()
    }
