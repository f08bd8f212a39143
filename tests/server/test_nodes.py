"""Several servers over one database: three ``baloot serve`` processes (nodes) share the tables
of one PostgreSQL schema. A new table goes to the least loaded node; a page or a socket asked
of a node that does not serve the table is sent to the one that does (a 307, close code 4307
with its public URL), and the table page in Chromium follows its table to another node;
every node lists every node's public tables; a node killed mid-hand loses nothing
acknowledged, and its tables go on at another node, where the page of a killed node finds
them. A lost or lapsed lease is ``test_node_leases.py``'s, the database stopped under a node
``test_node_database_away.py``'s; both start their nodes with the helpers here.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import psycopg
import pytest
from helpers import WAIT, free_port, wait_for
from psycopg import sql
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

import baloot
from baloot.server.live import CLOSE_ELSEWHERE, CLOSE_TRY_AGAIN

if TYPE_CHECKING:
    from playwright.sync_api import Page


# --------------------------------------------------------------------------- the nodes


@dataclass
class Node:
    """One ``baloot serve`` process, as node ``name`` at ``url`` (its public URL too)."""

    name: str
    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.url + path, timeout=WAIT) as response:
            return json.loads(response.read())

    def post(self, path: str, body: object) -> Any:
        request = urllib.request.Request(
            self.url + path, data=json.dumps(body).encode(), method="POST"
        )
        with urllib.request.urlopen(request, timeout=WAIT) as response:
            return json.loads(response.read())

    @property
    def ws(self) -> str:
        return "ws" + self.url.removeprefix("http")


def start_node(name: str, database: str, workdir: Path, *options: str) -> Node:
    """Node ``name`` started over ``database``, with ``options`` after the usual ones."""
    source = str(Path(baloot.__file__).resolve().parents[1])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [source, env.get("PYTHONPATH")]))
    env["PYTHONUNBUFFERED"] = "1"  # its log whole at every moment, to show with a failure
    log = workdir / f"{name}.log"
    for _ in range(3):  # another program may take the free port first
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        command = [sys.executable, "-m", "baloot", "serve", "--port", str(port), "--db"]
        command += [database, "--node", name, "--public-url", url, "--bot-pause", "0"]
        command += ["--tables-per-minute", "0", *options]
        with log.open("ab") as out:
            process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
        node = Node(name, url, process, log)
        if wait_for(partial(started, node)) and answers(node):
            return node
        stop_node(node)
    raise AssertionError(f"node {name} did not start:\n{log.read_text(errors='replace')}")


def started(node: Node) -> bool:
    """Whether the node answers, or will never (it ended)."""
    return node.process.poll() is not None or answers(node)


def answers(node: Node) -> bool:
    try:
        node.get("/api/options")
    except OSError:
        return False
    return True


def stop_node(node: Node) -> int:
    if node.process.poll() is None:
        node.process.send_signal(signal.SIGTERM)
        try:
            return node.process.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            node.process.kill()
    return node.process.wait()


@pytest.fixture
def database(postgres_url: str) -> Iterator[str]:
    """A URL of the test database whose tables are in a schema of this test's own."""
    schema = f"test_{uuid.uuid4().hex}"
    with psycopg.connect(postgres_url, autocommit=True) as connection:
        connection.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
    glue = "&" if "?" in postgres_url else "?"
    yield f"{postgres_url}{glue}options=-csearch_path%3D{schema}"
    with psycopg.connect(postgres_url, autocommit=True) as connection:
        connection.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))


@pytest.fixture
def nodes(database: str, tmp_path: Path) -> Iterator[list[Node]]:
    """Nodes a, b, c over the test's database (:func:`started_nodes`)."""
    with started_nodes(database, tmp_path, "abc") as started:
        yield started


@pytest.fixture
def two_nodes(database: str, tmp_path: Path) -> Iterator[list[Node]]:
    """Nodes a and b over the test's database, for a test that needs no third."""
    with started_nodes(database, tmp_path, "ab") as started:
        yield started


@contextmanager
def started_nodes(database: str, tmp_path: Path, names: str) -> Iterator[list[Node]]:
    """A node for each of ``names`` over the database, started side by side (each start is
    mostly a process importing the server: together they take the time of one), stopped
    after, their logs free of tracebacks."""
    with ThreadPoolExecutor(len(names)) as pool:
        starts = [pool.submit(start_node, name, database, tmp_path) for name in names]
    started = [start.result() for start in starts if start.exception() is None]
    try:
        for start in starts:
            start.result()  # a node that did not start fails the test, once the others stop
        yield started
    finally:
        for node in started:
            stop_node(node)
    for node in started:
        assert "Traceback" not in node.log.read_text(errors="replace"), node.log.read_text()


def rows(database: str, query: str, *parameters: object) -> list[tuple[Any, ...]]:
    with psycopg.connect(database, autocommit=True) as connection:
        cursor = connection.execute(query, parameters)
        return cursor.fetchall() if cursor.description is not None else []


def holder(database: str, table_id: str) -> str | None:
    """The node whose lease on the table runs now, as the database says."""
    found = rows(
        database,
        "SELECT node FROM leases WHERE table_id = %s AND expires > %s",
        table_id,
        time.time(),
    )
    return str(found[0][0]) if found else None


def redirect_of(node: Node, path: str) -> tuple[int, str | None]:
    """The status of ``GET path`` at ``node``, and where it sends the browser, unfollowed."""

    class Unfollowed(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *_: Any) -> None:
            return None

    opener = urllib.request.build_opener(Unfollowed)
    try:
        with opener.open(node.url + path, timeout=WAIT) as response:
            return response.status, None
    except urllib.error.HTTPError as answer:
        return answer.code, answer.headers.get("location")


def closed_with(url: str) -> tuple[int, str]:
    """The close code and reason of a socket that the server closes before any message."""
    with (
        connect(url, open_timeout=WAIT, proxy=None) as ws,
        pytest.raises(ConnectionClosed) as closed,
    ):
        ws.recv(timeout=WAIT)
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code, closed.value.rcvd.reason


@contextmanager
def watched(url: str) -> Iterator[Page | None]:
    """The table page at ``url`` in Chromium, once it shows the table; None without Chromium
    (but ``CI=true`` fails instead)."""
    from playwright.sync_api import sync_playwright
    from test_browser import CHROMIUM_ARGS, chromium_path  # skipped there without a browser

    chromium = chromium_path()
    if chromium is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true and no Chromium (set BALOOT_CHROMIUM)")
        yield None
        return
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(url)
            page.locator("#felt").wait_for(timeout=WAIT * 1000)
            yield page
            assert errors == []
        finally:
            browser.close()


# --------------------------------------------------------------------------- a seat


@dataclass
class Player:
    """A human seat's connection that plays the first legal action at each of its turns and
    notes what the server acknowledged."""

    ws: ClientConnection
    seat: str = "S"
    snapshot: dict[str, Any] = field(default_factory=dict)
    acked: dict[str, str] = field(default_factory=dict)
    last: dict[str, Any] = field(default_factory=dict)
    count: int = 0
    v: int = 0
    """The last numbered message received."""
    tag: str = field(default_factory=lambda: uuid.uuid4().hex[:6])

    def receive(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=WAIT))
        if "view" in message:
            self.last = message
        self.v = max(self.v, message.get("v", 0))
        return message

    def my_turn(self) -> bool:
        view = self.last.get("view") or {}
        return bool(view.get("to_act") == self.seat and view.get("legal"))

    def play(self, actions: int) -> None:
        """Play until ``actions`` more of this seat's actions are acknowledged (saying ``next``
        at each hand's end)."""
        goal = len(self.acked) + actions
        while len(self.acked) < goal:
            if self.last.get("type") == "hand-over":
                self.send({"type": "next", "id": self.new_id("n")})
                self.last = {}
            elif self.my_turn():
                action = self.last["view"]["legal"][0]
                id_ = self.new_id("a")
                self.send({"type": "act", "id": id_, "action": action})
                self.await_answer(id_)
                self.acked[id_] = action
                self.last = {}  # the turn is played: the next view says whose it is
                continue
            self.receive()

    def await_answer(self, id_: str) -> None:
        while (message := self.receive())["type"] not in ("ack", "reject") or message.get(
            "id"
        ) != id_:
            pass
        assert message["type"] == "ack", message

    def give_entropy(self) -> None:
        """This seat's entropy for a hand not dealt yet, as its page gives it: the hand is
        dealt at once, not at the end of the deal's wait for an absent person."""
        fair = (self.snapshot.get("match") or {}).get("fair")
        if fair and not self.snapshot.get("view"):
            hand, entropy = fair["hand"], uuid.uuid4().hex
            self.send({"type": "entropy", "id": self.new_id("e"), "hand": hand, "entropy": entropy})

    def new_id(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}{self.tag}-{self.count}"

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))


def join(nodes: list[Node], table_id: str, token: str) -> tuple[Player, Node]:
    """The seat connected wherever the table is served, as a page does: a node that does not
    serve it sends the socket on (4307, to its public URL); a node that cannot be reached, or
    says to try again, is tried again after a pause, the first one asked first."""
    by_url = {node.url: node for node in nodes}
    deadline = time.monotonic() + WAIT
    target = nodes[0]
    while time.monotonic() < deadline:
        try:
            url = f"{target.ws}/ws/tables/{table_id}?token={quote(token)}"
            ws = connect(url, open_timeout=10, proxy=None, legacy=True)
        except OSError:  # the node is gone: back to the first node asked
            target = nodes[0]
            time.sleep(0.2)
            continue
        player = Player(ws)
        try:
            player.snapshot = player.receive()
            assert player.snapshot["type"] == "snapshot"
            player.give_entropy()
            return player, target
        except ConnectionClosed as closed:
            ws.close()
            code, reason = (closed.rcvd.code, closed.rcvd.reason) if closed.rcvd else (0, "")
            if code == CLOSE_ELSEWHERE and reason in by_url:
                target = by_url[reason]
                continue
            # Sent to a node that is gone (until its lease runs out), or asked to try again.
            assert code in (CLOSE_ELSEWHERE, CLOSE_TRY_AGAIN, 1001, 1006, 1011, 0), (code, reason)
            target = nodes[0]
            time.sleep(0.2)
    raise AssertionError(f"table {table_id} was served by none of the nodes")


def create(node: Node, **body: Any) -> dict[str, Any]:
    body.setdefault("seats", {"S": "human"})
    created: dict[str, Any] = node.post("/api/tables", body)
    return created


def serving(database: str, nodes: list[Node], table_id: str) -> Node:
    """The node that holds the table's lease, once one does."""
    assert wait_for(lambda: holder(database, table_id) is not None)
    return next(node for node in nodes if node.name == holder(database, table_id))


def made_at(database: str, node: Node) -> tuple[str, str]:
    """A table made at ``node`` and served there (new tables go to the least loaded node: some
    are asked for until one stays), with its South seat's token."""
    made: list[dict[str, Any]] = []

    def stays() -> bool:
        made.append(create(node))
        return holder(database, made[-1]["table"]) == node.name

    assert wait_for(stays)
    return made[-1]["table"], made[-1]["seats"]["S"]["token"]


# --------------------------------------------------------------------------- the tests


def test_new_tables_go_to_the_least_loaded_node_and_pages_and_sockets_are_sent_there(
    database: str, nodes: list[Node]
) -> None:
    a = nodes[0]
    # Each new table goes to a node as little loaded as any: until a hears of the others'
    # heartbeats they are a's own; then a, which serves them, is the most loaded.
    made: list[dict[str, Any]] = []

    def placed_elsewhere() -> bool:
        made.append(create(a))
        if holder(database, made[-1]["table"]) == "a":
            time.sleep(0.2)
            return False
        return True

    assert wait_for(placed_elsewhere), "no new table ever went to another node"
    created = made[-1]
    table_id, token = created["table"], created["seats"]["S"]["token"]
    elsewhere = serving(database, nodes, table_id)
    assert elsewhere.name in ("b", "c")
    # The links of the answer are relative, as ever: the node that made the table sends them on.
    assert created["seats"]["S"]["url"] == f"/t/{table_id}?token={token}"
    query = f"token={quote(token)}&lang=ar"
    assert redirect_of(a, f"/t/{table_id}?{query}") == (
        307,  # and the node asked, for the page to ask should that node die
        f"{elsewhere.url}/t/{table_id}?{query}#home={quote(a.url, safe='')}",
    )
    assert redirect_of(elsewhere, f"/t/{table_id}?{query}") == (200, None)
    assert closed_with(f"{a.ws}/ws/tables/{table_id}?token={quote(token)}") == (
        CLOSE_ELSEWHERE,
        elsewhere.url,
    )
    player, served_by = join(nodes, table_id, token)
    assert served_by is elsewhere
    player.play(3)
    player.ws.close()
    # Every node answers what anyone may know of a table, from the database, and where it
    # is served now.
    for node in nodes:
        described = node.get(f"/api/tables/{table_id}")
        assert described["status"] == "playing" and described["humans"] == ["S"]
        assert described["url"] == elsewhere.url


def test_every_node_lists_the_public_tables_of_every_node(database: str, nodes: list[Node]) -> None:
    first = nodes[0]
    with connect(nodes[1].ws + "/ws/lobby", open_timeout=WAIT) as feed:
        made = {first.name: create(first, public=True, names={"S": first.name})["table"]}
        # The lobby of another node hears of it, by the database's notifications.
        assert json.loads(feed.recv(timeout=WAIT)) == {"type": "lobby"}
    for node in nodes[1:]:
        made[node.name] = create(node, public=True, names={"S": node.name})["table"]
    create(nodes[0], public=False)
    for node in nodes:
        listed = {table["table"]: table for table in node.get("/api/tables")["tables"]}
        assert set(listed) == set(made.values())
        for name, table_id in made.items():
            assert listed[table_id]["players"]["S"] == name
            assert listed[table_id]["spectate"] == f"/t/{table_id}"
            assert listed[table_id]["hand"] >= 1


def test_a_node_killed_mid_hand_loses_nothing_and_its_table_goes_on_at_another(
    database: str, nodes: list[Node]
) -> None:
    created = create(nodes[0], seats={"S": "human"}, public=True)
    table_id, token = created["table"], created["seats"]["S"]["token"]
    player, first = join(nodes, table_id, token)
    player.play(4)
    # Another table of the same node, which nobody is connected to: it too goes on elsewhere.
    made: list[str] = []

    def made_at_first() -> bool:
        made.append(create(first)["table"])
        return holder(database, made[-1]) == first.name

    assert wait_for(made_at_first)
    unwatched = made[-1]
    acked_before = dict(player.acked)
    v_before = player.v
    first.process.send_signal(signal.SIGKILL)  # no clean stop: its lease runs out by itself
    first.process.wait(timeout=WAIT)
    player.ws.close()
    alive = [node for node in nodes if node is not first]
    again, second = join(alive, table_id, token)
    assert second is not first
    assert again.snapshot["v"] >= v_before
    # The same action ids again are acknowledged and not applied twice.
    for id_, action in acked_before.items():
        again.send({"type": "act", "id": id_, "action": action})
        again.await_answer(id_)
    again.acked = dict(acked_before)
    again.play(2)
    steps = rows(
        database,
        "SELECT n, body FROM steps WHERE table_id = %s ORDER BY n",
        table_id,
    )
    assert [n for n, _ in steps] == list(range(len(steps)))
    applied = [json.loads(body) for _, body in steps]
    by_id: dict[str, list[list[str]]] = {}
    for step in applied:
        if step["kind"] == "act":
            by_id.setdefault(step["id"], []).append(step["actions"])
    for id_, action in again.acked.items():
        assert by_id.get(id_) == [[action]], (id_, by_id.get(id_))
    vs = [step["v"] for step in applied]
    assert vs == sorted(vs) and len(set(vs)) == len(vs)
    assert holder(database, table_id) == second.name
    survivors = {node.name: node for node in alive}
    assert wait_for(lambda: holder(database, unwatched) in survivors)
    adopter = survivors[str(holder(database, unwatched))]
    with connect(f"{adopter.ws}/ws/tables/{unwatched}", proxy=None) as spectator:
        assert json.loads(spectator.recv(timeout=WAIT))["type"] == "snapshot"
    # Stopped cleanly, a node leaves its tables to the others at once.
    assert stop_node(second) == -signal.SIGTERM
    assert holder(database, table_id) != second.name
    assert rows(database, "SELECT 1 FROM nodes WHERE name = %s", second.name) == []


def test_a_table_page_whose_table_moves_follows_it_to_the_new_node(
    database: str, two_nodes: list[Node]
) -> None:
    """The page's socket is closed with 4307 and the new holder's URL: the page moves to the
    same path and query on that node, and plays on there."""
    from playwright.sync_api import expect, sync_playwright
    from test_browser import CHROMIUM_ARGS, chromium_path  # skipped there without a browser

    a, b = two_nodes
    table_id, token = made_at(database, a)
    path = f"/t/{table_id}?token={token}&lang=ar"
    chromium = chromium_path()
    if chromium is None:
        reason = "no Chromium (set BALOOT_CHROMIUM to a Chromium executable)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true and {reason}")
        pytest.skip(reason)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(a.url + path)
            page.locator("#felt").wait_for(timeout=WAIT * 1000)
            rows(  # a's lease ran out, and b took the table
                database,
                "UPDATE leases SET node = 'b', expires = %s WHERE table_id = %s",
                time.time() + 3600,
                table_id,
            )
            home = f"#home={quote(a.url, safe='')}"  # where the page was first loaded
            expect(page).to_have_url(b.url + path + home, timeout=WAIT * 1000)
            expect(page.locator("html")).to_have_attribute("lang", "ar")
            page.locator("#felt").wait_for(timeout=WAIT * 1000)
            assert errors == []
        finally:
            browser.close()


def seat_steps(database: str, table_id: str, seat: str = "S") -> int:
    """How many of the seat's own decisions (actions, ``next``) the table's journal holds."""
    found = 0
    for (body,) in rows(database, "SELECT body FROM steps WHERE table_id = %s", table_id):
        step = json.loads(body)
        found += step["kind"] in ("act", "next") and step["seat"] == seat
    return found


def test_a_table_page_whose_node_is_killed_finds_the_tables_new_node(
    database: str, nodes: list[Node]
) -> None:
    """Opened at node b, the page is sent (307) to a, which serves its table; a is killed
    (-9). The page, its own server gone, asks b, where it was first loaded: once a's lease
    runs out the table is served by b (or by c, and b says so), the page moves there and its
    human plays on."""
    a, b, c = nodes
    table_id, token = made_at(database, a)
    path = f"/t/{table_id}?token={token}"
    with watched(b.url + path) as page:
        if page is None:
            pytest.skip("no Chromium (set BALOOT_CHROMIUM to a Chromium executable)")
        from playwright.sync_api import expect

        expect(page).to_have_url(f"{a.url}{path}#home={quote(b.url, safe='')}")
        a.process.send_signal(signal.SIGKILL)
        a.process.wait(timeout=WAIT)
        again = "|".join(re.escape(node.url + path) for node in (b, c))
        expect(page).to_have_url(re.compile(f"^({again})#"), timeout=WAIT * 1000)
        page.locator("#felt").wait_for(timeout=WAIT * 1000)
        before = seat_steps(database, table_id)
        page.locator("[data-action]:visible").first.click(timeout=WAIT * 1000)
        assert wait_for(lambda: seat_steps(database, table_id) > before)
