#!/usr/bin/env python3
"""A load benchmark of ``baloot serve``: many tables at once, each with one scripted human.

Not a test: it measures and reports. It starts the server as a subprocess on a free port of
127.0.0.1 with a fresh SQLite file (``--db`` gives a PostgreSQL URL instead),
``--bot-pause 0`` (bot decisions follow at once, so the latencies measure the server) and
``--tables-per-minute 0`` (its clients all come from one address).
The clients run in separate processes (``--clients``, default 2), each an asyncio event loop
playing its share of the tables with the ``websockets`` client. Every table is made by
``POST /api/tables`` with one human seat (S) and three bots (``--bots``, default ``medium``,
what the lobby offers players); its human
connects with its token and, whenever its view says it is to act, waits a think time, then
sends an ``act`` with a legal action chosen at random (seeded) from ``view.legal``; after
``hand-over`` it sends ``next``. With ``--hints P`` it first asks a ``hint`` on a share P of its
turns (half its think time before it acts), as a player who asks the best bot would. A table
whose match is over is replaced by a new one, so the number of tables in play stays the same.
The protocol is ``seat-view.md`` §4.

Two runs::

    # paced: 200 tables, people thinking 1-3 s per decision, for 120 s
    PYTHONPATH=src .venv/bin/python scripts/load.py
    # saturation: 50 tables whose humans never pause (20 messages/s per connection at most)
    PYTHONPATH=src .venv/bin/python scripts/load.py --saturate
    # options: --tables N --seconds S --think 1-3 --clients 2 --db postgresql://… --json
    #          --bots heuristic --bot-workers 2 (the server's; 0: its threads)
    #          --bots-on local|auto|ray://… (the server's: bots on a Ray cluster)
    #          --hints 0.3 (the human asks a hint on 30 % of its turns)
    # three nodes over one PostgreSQL, the first killed (SIGKILL) after 20 s
    PYTHONPATH=src .venv/bin/python scripts/load.py --servers 3 --db postgresql://… \
        --kill-one-at 20

Several servers (``--servers N``, over the one ``--db`` PostgreSQL URL) are the nodes ``n0``,
``n1``… each on a free port with that as its public URL. The clients ask the servers in turn
for new tables and connect to the one asked (the seat's link is relative); a close with code
4307 sends a client to the node its reason names (same path and query), counted as
``redirects``. A connection that drops (no close frame, 1001, 1011, 1013, or refused) is opened
again at the next server, following 4307s, every 0.25 s, with a ``resync`` from the last ``v``;
the failover time runs from the drop to the first message that moves the table on (a numbered
message past the last ``v``, or a snapshot with a later ``v`` or another view), the human
answering at once after a drop. Checked then: ``v`` never goes back (``v_backwards``), an act
acknowledged before the drop is in the table (``lost_ack``: its event's ``v`` is reached), and
the hand has no fewer actions (``lost_action``). ``--kill-one-at S`` SIGKILLs the first server
(its process group) S seconds in; ``--pause-one-at S`` freezes it (SIGSTOP) for ``--pause-for``
seconds, then lets it go on (SIGCONT). A table that keeps silent past ``--timeout`` is counted
as an error and waited for, never left to play on behind a new one: the tables in play are
always the ones asked for, so ``tables_created`` is at most ``--tables`` plus ``matches_over``.

Measured per human decision: act -> ack, and act -> the numbered message that follows the
ack (the ``event`` of the action itself), in milliseconds; ``next`` -> ack and hint -> its
answer separately.
Errors: every ``reject`` (``rate_limited`` counted apart), unexpected close, exception,
timeout (no answer within ``--timeout`` seconds), a gap in ``v``. The servers' memory (VmRSS
of /proc/PID/status, summed) is sampled every second (peak and end), and their CPU time read
from /proc/PID/stat, and those of their bot worker processes (their children) apart. A bot's
decision is timed as the human sees it: from the numbered message before a bot's event to
that event. Throughput: decisions/s (human acts acknowledged) and actions/s (``event``
messages, bots' included).

Targets, for the paced run of 200 tables: p99 of act -> event under 100 ms, and the server's
memory under 500 MB. The exit status is 0 when the run completed (targets met or not), 1 when
it could not run (the server did not start, a client process failed).

Everything stays on 127.0.0.1; the run stops by itself after ``--seconds``; the servers (with
their process groups) and the client processes are stopped on the way out, Ctrl-C included.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import multiprocessing.process
import multiprocessing.queues
import os
import queue
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Final

HOST: Final = "127.0.0.1"
#: The human's seat at every table.
SEAT: Final = "S"
#: The server's limit is 20 messages a second per connection; a client keeps below it.
MIN_INTERVAL: Final = 1 / 18
#: Table requests in flight at once, per client process.
CREATING: Final = 8
#: The most tables one slot plays in a run (a bound on the loop; matches take seconds).
MAX_TABLES_PER_SLOT: Final = 10_000
#: Targets of the paced run.
TARGET_P99_MS: Final = 100.0
TARGET_RSS_MB: Final = 500.0
#: The close code of a node that does not serve the table; the reason is the holder's URL.
CLOSE_ELSEWHERE: Final = 4307
ROOT: Final = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class WorkerConfig:
    """What one client process plays: ``tables`` slots on the servers at ``bases``."""

    index: int
    bases: tuple[str, ...]
    tables: int
    seconds: float
    think: tuple[float, float]
    seed: int
    timeout: float
    bots: str
    hints: float


@dataclass
class Stats:
    """What one client process measured (plain data, sent back to the main process)."""

    ack_ms: list[float] = field(default_factory=list)
    event_ms: list[float] = field(default_factory=list)
    #: When each act of ``event_ms`` was sent, in seconds from the start.
    event_at: list[float] = field(default_factory=list)
    next_ms: list[float] = field(default_factory=list)
    hint_ms: list[float] = field(default_factory=list)
    bot_ms: list[float] = field(default_factory=list)
    create_ms: list[float] = field(default_factory=list)
    #: From a connection's drop to the first message of another node that moves the table on.
    failover_s: list[float] = field(default_factory=list)
    decisions: int = 0
    events: int = 0
    hands: int = 0
    matches: int = 0
    tables: int = 0
    rate_limited: int = 0
    #: Connections closed with 4307 (the table is at another node) and followed there.
    redirects: int = 0
    #: The same while failing over (a live node names the dead one until its lease runs out).
    failover_redirects: int = 0
    #: Connections that dropped (or could not open) while the table was in play.
    drops: int = 0
    #: Tables whose play went on at another node after a drop.
    failed_over: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    cpu_s: float = 0.0
    elapsed_s: float = 0.0

    def to_json(self) -> dict[str, Any]:
        out = dict(self.__dict__)
        out["errors"] = dict(self.errors)
        return out

    def merge(self, data: dict[str, Any]) -> None:
        for name in LISTS:
            getattr(self, name).extend(data[name])
        for name in COUNTS:
            setattr(self, name, getattr(self, name) + data[name])
        self.errors.update(data["errors"])
        self.cpu_s += data["cpu_s"]
        self.elapsed_s = max(self.elapsed_s, data["elapsed_s"])


LISTS: Final = (
    "ack_ms",
    "event_ms",
    "event_at",
    "next_ms",
    "hint_ms",
    "bot_ms",
    "create_ms",
    "failover_s",
)
COUNTS: Final = (
    "decisions",
    "events",
    "hands",
    "matches",
    "tables",
    "rate_limited",
    "redirects",
    "failover_redirects",
    "drops",
    "failed_over",
)


@dataclass
class Seat:
    """The human of one table, as it stands across its connections (one node, then another)."""

    table: str
    token: str
    #: The node it connects to (host:port).
    base: str
    view: dict[str, Any] = field(default_factory=dict)
    #: The last ``v`` heard (-1: none yet).
    v: int = -1
    #: The hand in play (``match.hand``) and how many actions its view had, as last heard.
    hand: int = 0
    actions: int = 0
    #: Messages sent, for their ids (unique for the table's life).
    numbers: int = 0
    #: When the connection dropped, while the table has not moved on at another node.
    dropped_at: float | None = None
    #: The ``v`` the table must reach after the drop: one more when an act was acknowledged
    #: before its event was heard.
    must_reach: int = -1
    #: The table's view and ``v`` when it dropped, to tell a snapshot that moves it on.
    view_at_drop: dict[str, Any] = field(default_factory=dict)
    v_at_drop: int = -1
    #: Whether this table already counts in ``failed_over``.
    counted: bool = False


#: How a connection ended: the match is over (or an error, counted), the table is at another
#: node (host:port), or the node went away.
Outcome = tuple[str, str]
OVER: Final = ("over", "")
DOWN: Final = ("down", "")
#: Close codes of a node that went away (1006: no close frame at all).
CLOSED_DOWN: Final = frozenset({1001, 1006, 1011, 1013})
#: A table that no node serves for this long after a drop is given up.
FAILOVER_GIVE_UP_S: Final = 45.0
#: The pause before connecting again after a drop.
RETRY_S: Final = 0.25


class Client:
    """One client process's event loop: its slots, each one human at one table at a time."""

    def __init__(self, config: WorkerConfig) -> None:
        self.config = config
        self.stats = Stats()
        self.deadline = 0.0
        self.start = 0.0
        self.creating = asyncio.Semaphore(CREATING)
        self.created = 0

    async def run(self) -> Stats:
        start = self.start = time.perf_counter()
        self.deadline = start + self.config.seconds
        slots = [self.slot(i) for i in range(self.config.tables)]
        await asyncio.gather(*slots)
        self.stats.elapsed_s = time.perf_counter() - start
        self.stats.cpu_s = time.process_time()
        return self.stats

    async def slot(self, number: int) -> None:
        """Play table after table until the deadline."""
        rng = random.Random(self.config.seed * 1_000_003 + self.config.index * 10_007 + number)
        for _ in range(MAX_TABLES_PER_SLOT):
            if time.perf_counter() >= self.deadline:
                return
            created = await self.create()
            if created is None:
                await asyncio.sleep(1.0)
                continue
            try:
                await self.play(Seat(*created), rng)
            except Exception as error:  # counted, and the slot goes on with a new table
                self.stats.errors[f"exception:{type(error).__name__}"] += 1

    def after(self, base: str) -> str:
        """The server after ``base`` in the list (where a client goes when ``base`` fails)."""
        bases = self.config.bases
        return bases[(bases.index(base) + 1) % len(bases)] if base in bases else bases[0]

    async def create(self) -> tuple[str, str, str] | None:
        """A new table, asked of the servers in turn: its id, the human's token, the server.

        None after an error (counted). A server that cannot be reached passes the request to
        the next one.
        """
        body = json.dumps(
            {
                "rules": "classic",
                "seats": {
                    "N": f"bot:{self.config.bots}",
                    "E": f"bot:{self.config.bots}",
                    "S": "human",
                    "W": f"bot:{self.config.bots}",
                },
                "names": {SEAT: "load"},
            }
        ).encode()

        def post(base: str) -> dict[str, Any]:
            request = urllib.request.Request(
                f"http://{base}/api/tables",
                data=body,
                headers={"content-type": "application/json"},
                method="POST",
            )
            with urllib.request.urlopen(request, timeout=self.config.timeout) as response:
                if response.status != 201:
                    raise urllib.error.URLError(f"status {response.status}")
                answer: dict[str, Any] = json.loads(response.read())
                return answer

        bases = self.config.bases
        base = bases[(self.config.index + self.created) % len(bases)]
        self.created += 1
        async with self.creating:
            began = time.perf_counter()
            for attempt in range(len(bases)):
                try:
                    answer = await asyncio.to_thread(post, base)
                    break
                except urllib.error.HTTPError as error:
                    self.stats.errors[f"create:http-{error.code}"] += 1
                    return None
                except urllib.error.URLError as error:
                    if attempt + 1 < len(bases) and isinstance(error.reason, OSError):
                        base = self.after(base)
                        continue
                    self.stats.errors[f"create:{type(error).__name__}"] += 1
                    return None
                except Exception as error:
                    self.stats.errors[f"create:{type(error).__name__}"] += 1
                    return None
            self.stats.create_ms.append((time.perf_counter() - began) * 1000)
        self.stats.tables += 1
        # The seat's link is relative: the socket goes to the server asked, on the same path.
        return str(answer["table"]), str(answer["seats"][SEAT]["token"]), base

    async def play(self, seat: Seat, rng: random.Random) -> None:
        """Play one table until its match is over, an error, or the deadline.

        It follows the table from node to node: to the node a 4307 names, and after a drop to
        the next server, until one serves it again.
        """
        from websockets.exceptions import InvalidHandshake

        stats = self.stats
        while time.perf_counter() < self.deadline:
            try:
                kind, where = await self.connection(seat, rng)
            except (OSError, TimeoutError, InvalidHandshake):  # refused, or never opened
                kind, where = DOWN
            if kind == "over":
                return
            if kind == "moved":
                if seat.dropped_at is None:
                    stats.redirects += 1
                else:
                    stats.failover_redirects += 1
                seat.base = where
                continue
            now = time.perf_counter()
            if seat.dropped_at is None:
                stats.drops += 1
                seat.dropped_at = now
                seat.view_at_drop, seat.v_at_drop = seat.view, seat.v
            elif now - seat.dropped_at > FAILOVER_GIVE_UP_S:
                stats.errors["failover:gave_up"] += 1
                return
            seat.base = self.after(seat.base)
            await asyncio.sleep(RETRY_S)

    def moved_on(self, seat: Seat, message: dict[str, Any], now: float) -> bool:
        """After a drop: check what ``message`` says against what was heard before the drop.

        True when it moves the table on (the failover is done), False when it tells nothing new
        (a duplicate of a resync, or a snapshot of the table as it was).
        """
        assert seat.dropped_at is not None
        stats = self.stats
        v = message["v"]
        if message.get("type") != "snapshot":
            if v <= seat.v:
                return False
        else:
            if v < seat.v_at_drop:
                stats.errors["v_backwards"] += 1
            elif v < seat.must_reach:
                stats.errors["lost_ack"] += 1
            match = message.get("match", {})
            actions = len((message["view"] or {}).get("actions", []))  # none before the deal
            if match.get("hand") == seat.hand and actions < seat.actions:
                stats.errors["lost_action"] += 1
            if v <= seat.v_at_drop and message["view"] == seat.view_at_drop:
                return False
        stats.failover_s.append(now - seat.dropped_at)
        if not seat.counted:
            stats.failed_over += 1
            seat.counted = True
        seat.dropped_at = None
        return True

    async def connection(self, seat: Seat, rng: random.Random) -> Outcome:
        """One connection of the human to its table's node: what ended it."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed

        stats = self.stats
        low, high = self.config.think
        timeout = self.config.timeout
        uri = f"ws://{seat.base}/ws/tables/{seat.table}?token={seat.token}"
        async with connect(
            uri, open_timeout=timeout, close_timeout=2, ping_interval=None, max_size=2**22
        ) as ws:
            # The message in flight: its kind ("act"/"next"), id, when sent, when acked.
            pending: tuple[str, str, float, float | None] | None = None
            scheduled: tuple[str, float] | None = None  # what to send next, and when
            last_sent = 0.0
            last_heard = time.perf_counter()
            awaiting_next = False
            hinted_at = -1  # the number of actions of the turn a hint was asked in
            late: dict[str, int] = {}  # the timeouts counted for a message in flight, by id

            async def send(kind: str, now: float) -> tuple[str, str, float, float | None]:
                nonlocal last_sent
                seat.numbers += 1
                id_ = f"{kind[0]}{seat.numbers}"
                message: dict[str, Any] = {"type": kind, "id": id_}
                if kind == "act":
                    message["action"] = rng.choice(seat.view["legal"])
                last_sent = now
                await ws.send(json.dumps(message))
                return kind, id_, now, None

            try:
                if seat.dropped_at is not None and seat.v >= 0:
                    await ws.send(json.dumps({"type": "resync", "since": seat.v}))
                while True:
                    now = time.perf_counter()
                    if now >= self.deadline:
                        return OVER
                    until = self.deadline
                    if scheduled is not None:
                        until = min(until, scheduled[1])
                    if pending is not None:
                        until = min(until, pending[2] + timeout * (1 + late.get(pending[1], 0)))
                    else:
                        until = min(until, last_heard + timeout)
                    try:
                        raw = await asyncio.wait_for(ws.recv(), max(0.0, until - now))
                    except TimeoutError:
                        now = time.perf_counter()
                        if scheduled is not None and now >= scheduled[1]:
                            if now < last_sent + MIN_INTERVAL:
                                scheduled = scheduled[0], last_sent + MIN_INTERVAL
                                continue
                            pending = await send(scheduled[0], now)
                            scheduled = None
                        # A slow table is counted and waited for, never left to play on
                        # behind a new one: the tables in play stay the ones asked for.
                        elif pending is not None and now >= pending[2] + timeout * (
                            1 + late.get(pending[1], 0)
                        ):
                            stats.errors[f"timeout:{pending[0]}"] += 1
                            late[pending[1]] = late.get(pending[1], 0) + 1
                        elif pending is None and scheduled is None and now >= last_heard + timeout:
                            stats.errors["timeout:silence"] += 1
                            last_heard = now
                        continue
                    now = time.perf_counter()
                    heard_before, last_heard = last_heard, now
                    message = json.loads(raw)
                    kind = message.get("type")
                    resumed = False
                    if "v" in message:
                        if seat.dropped_at is not None:
                            if not self.moved_on(seat, message, now):
                                if kind != "snapshot":
                                    continue  # a message it has already
                            else:
                                resumed = True
                        elif kind != "snapshot" and seat.v >= 0 and message["v"] != seat.v + 1:
                            if message["v"] <= seat.v:
                                continue  # a message it has already (a resync's)
                            stats.errors["v_gap"] += 1
                        seat.v = message["v"]
                        seat.must_reach = seat.v
                        if pending is not None and pending[3] is not None and kind != "snapshot":
                            took = (now - pending[2]) * 1000
                            if pending[0] == "act":
                                stats.event_ms.append(took)
                                stats.event_at.append(pending[2] - self.start)
                            pending = None
                    if kind == "ack":
                        if pending is not None and message.get("id") == pending[1]:
                            took = (now - pending[2]) * 1000
                            if pending[0] == "act":
                                stats.ack_ms.append(took)
                                stats.decisions += 1
                                # Stored before the ack: its event must come, here or elsewhere.
                                seat.must_reach = seat.v + 1
                            else:
                                stats.next_ms.append(took)
                            pending = pending[0], pending[1], pending[2], now
                        continue
                    if kind == "hint" and pending is not None and message.get("id") == pending[1]:
                        stats.hint_ms.append((now - pending[2]) * 1000)
                        pending = None
                        scheduled = "act", max(now, last_sent + MIN_INTERVAL)
                        continue
                    if kind == "reject":
                        code = str(message.get("code"))
                        if code == "rate_limited":
                            stats.rate_limited += 1
                        else:
                            stats.errors[f"reject:{code}"] += 1
                        if pending is not None and message.get("id") == pending[1]:
                            retry = pending[0]
                            pending = None
                            if code == "rate_limited":
                                scheduled = retry, now + 0.2
                            elif retry == "hint":  # a hint refused: the human acts all the same
                                scheduled = "act", max(now, last_sent + MIN_INTERVAL)
                        continue
                    if kind in ("snapshot", "event", "deal", "hand-over"):
                        seat.view = message["view"] or {}  # no view: the first hand not dealt
                        seat.actions = len(seat.view.get("actions", []))
                    fair = (message.get("match") or {}).get("fair")
                    if kind == "snapshot" and message["view"] is None and fair is not None:
                        # The first hand waits for the human's entropy, sent as a page does.
                        given = {"hand": fair["hand"], "entropy": rng.randbytes(16).hex()}
                        await ws.send(json.dumps({"type": "entropy", "id": "e1", **given}))
                    if kind == "event":
                        stats.events += 1
                        if not resumed and not str(message.get("action", "")).startswith(SEAT):
                            stats.bot_ms.append((now - heard_before) * 1000)
                    if kind in ("snapshot", "deal", "hand-over"):
                        match = message["match"]
                        seat.hand = match.get("hand", seat.hand)
                        if match.get("winner") is not None:
                            stats.matches += 1
                            return OVER
                        awaiting_next = SEAT in match.get("awaiting_next", [])
                    if kind == "hand-over":
                        stats.hands += 1
                    if pending is not None or scheduled is not None:
                        continue
                    # Back after a drop, the human answers at once: the failover time is the
                    # servers', not a think time.
                    back = seat.dropped_at is not None
                    think = rng.uniform(low, high) if high > 0 and not back else 0.0
                    at = max(now + think, last_sent + MIN_INTERVAL)
                    if seat.view.get("to_act") == SEAT and seat.view.get("legal"):
                        scheduled = "act", at
                        turn = seat.hand * 1000 + seat.actions
                        if hinted_at != turn and rng.random() < self.config.hints:
                            hinted_at = turn
                            scheduled = "hint", max(now + think / 2, last_sent + MIN_INTERVAL)
                    elif seat.view.get("phase") == "over" and awaiting_next:
                        scheduled = "next", at
                        awaiting_next = False
            except ConnectionClosed as closed:
                close_code = closed.rcvd.code if closed.rcvd else 1006
                if close_code == CLOSE_ELSEWHERE and closed.rcvd is not None:
                    where = urllib.parse.urlsplit(closed.rcvd.reason).netloc
                    return ("moved", where) if where else DOWN
                if close_code in CLOSED_DOWN:
                    return DOWN
                stats.errors[f"closed:{close_code}"] += 1
                return OVER


def _worker(config: WorkerConfig, results: multiprocessing.queues.Queue[Any]) -> None:
    """A client process: play, then put the stats (or the error) on ``results``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the main process stops us
    try:
        stats = asyncio.run(Client(config).run())
        results.put((config.index, stats.to_json()))
    except BaseException as error:
        results.put((config.index, {"failed": f"{type(error).__name__}: {error}"}))


# ---------------------------------------------------------------------- the server


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def start_server(
    port: int,
    db: str,
    log: IO[bytes],
    bot_workers: int | None = None,
    node: str | None = None,
    bots_on: str | None = None,
) -> subprocess.Popen[bytes]:
    """``baloot serve`` on ``port``; as the node ``node`` (public URL its own) when given."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT / "src"), env.get("PYTHONPATH", "")) if p
    )
    command = [sys.executable, "-m", "baloot", "serve", "--host", HOST, "--port", str(port)]
    command += ["--db", db, "--bot-pause", "0", "--tables-per-minute", "0"]
    if node is not None:
        command += ["--node", node, "--public-url", f"http://{HOST}:{port}"]
    if bot_workers is not None:
        command += ["--bot-workers", str(bot_workers)]
    if bots_on is not None:
        command += ["--bots-on", bots_on]
    # A session of its own: Ctrl-C reaches this process only, which then stops the server;
    # and its process group is the server with its bot workers, to end them all at once.
    return subprocess.Popen(
        command, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
    )


def wait_ready(server: subprocess.Popen[bytes], port: int, seconds: float = 60.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if server.poll() is not None:
            return False
        try:
            url = f"http://{HOST}:{port}/api/options"
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return True
        except OSError:
            pass
        time.sleep(0.2)
    return False


def stop_server(server: subprocess.Popen[bytes]) -> int | None:
    """Stop the server (SIGTERM, then SIGKILL), then whatever of its process group is left."""
    if server.poll() is None:
        signal_group(server, signal.SIGCONT)  # a paused server hears nothing else
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=10)
    kill_group(server)
    return server.returncode


def signal_group(server: subprocess.Popen[bytes], signum: int) -> None:
    """Send ``signum`` to the server's process group (its bot workers too), if it is there."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(server.pid, signum)


def kill_group(server: subprocess.Popen[bytes]) -> None:
    """SIGKILL the server's process group (it leads its own session: the group is its id)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(server.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        server.wait(timeout=10)


def rss_mb(pid: int) -> float | None:
    """The process's resident memory (VmRSS), in MB."""
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return None


def children_of(pid: int) -> list[int]:
    """The processes ``pid`` started (its bot workers), and theirs, from /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                text = (entry / "stat").read_text()
                parents[int(entry.name)] = int(text[text.rindex(")") + 2 :].split()[1])
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        for child, its_parent in parents.items():
            if its_parent == parent:
                found.append(child)
                todo.append(child)
    return found


def cpu_s(pid: int) -> float | None:
    """The process's CPU time (user + system), in seconds."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# ---------------------------------------------------------------------- the run


def percentiles(values: list[float]) -> dict[str, float | None]:
    """p50, p90, p99 and max (nearest rank), in the unit of ``values``."""
    if not values:
        return {"n": 0, "p50": None, "p90": None, "p99": None, "max": None}
    ordered = sorted(values)

    def rank(p: float) -> float:
        return round(ordered[max(0, min(len(ordered) - 1, int(p * len(ordered) + 0.5) - 1))], 2)

    return {
        "n": len(ordered),
        "p50": rank(0.50),
        "p90": rank(0.90),
        "p99": rank(0.99),
        "max": round(ordered[-1], 2),
    }


@dataclass
class Server:
    """One ``baloot serve`` of the run: its node's name (None alone), port, process and log."""

    node: str | None
    port: int
    process: subprocess.Popen[bytes]
    log_path: Path

    @property
    def base(self) -> str:
        return f"{HOST}:{self.port}"


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Start the servers and the clients, measure, stop everything: the report's data."""
    ctx = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory(prefix="baloot-load-") as tmp, contextlib.ExitStack() as logs:
        db = args.db or str(Path(tmp) / "tables.db")
        servers: list[Server] = []
        workers: list[multiprocessing.process.BaseProcess] = []
        try:
            ports: set[int] = set()
            for number in range(args.servers):
                while (port := free_port()) in ports:
                    pass
                ports.add(port)
                log_path = Path(tmp) / f"server{number}.log"
                log = logs.enter_context(log_path.open("wb"))
                node = f"n{number}" if args.servers > 1 else None
                process = start_server(port, db, log, args.bot_workers, node, args.bots_on)
                servers.append(Server(node, port, process, log_path))
            for server in servers:
                if not wait_ready(server.process, server.port):
                    tail = server.log_path.read_text(errors="replace")[-2000:]
                    raise SystemExit(f"load: the server on {server.base} did not start\n{tail}")
                name = f" {server.node}" if server.node else ""
                print(
                    f"load: server{name} pid {server.process.pid} on {server.base}",
                    file=sys.stderr,
                    flush=True,
                )
            return _measure(args, ctx, servers, workers)
        finally:
            for worker in workers:
                if worker.is_alive():
                    worker.terminate()
            for worker in workers:
                worker.join(timeout=5)
                if worker.is_alive():
                    worker.kill()
                    worker.join(timeout=5)
            for server in servers:
                stop_server(server.process)


@dataclass
class Usage:
    """The servers' and their workers' CPU time and memory, sampled every second."""

    servers: list[Server]
    #: Each process's CPU time when first seen at the start (0 for those started later), and
    #: when last seen.
    first: dict[int, float] = field(default_factory=dict)
    last: dict[int, float] = field(default_factory=dict)
    server_rss: list[float] = field(default_factory=list)
    workers_rss: list[float] = field(default_factory=list)
    started: bool = False

    def sample(self, keep_rss: bool = True) -> None:
        server_mb = workers_mb = 0.0
        alive = [s.process.pid for s in self.servers if s.process.poll() is None]
        for pid in alive:
            server_mb += rss_mb(pid) or 0.0
            children = children_of(pid)
            workers_mb += sum(rss_mb(child) or 0.0 for child in children)
            for each in (pid, *children):
                if (seconds := cpu_s(each)) is not None:
                    self.first.setdefault(each, seconds if not self.started else 0.0)
                    self.last[each] = seconds
        self.started = True
        if keep_rss and alive:
            self.server_rss.append(server_mb)
            self.workers_rss.append(workers_mb)

    def cpu(self) -> tuple[float, float]:
        """The CPU seconds of the servers, and of their workers, since the start."""
        servers = {s.process.pid for s in self.servers}
        used = {pid: self.last[pid] - self.first[pid] for pid in self.last}
        mine = sum(t for pid, t in used.items() if pid in servers)
        return mine, sum(used.values()) - mine


def _measure(
    args: argparse.Namespace,
    ctx: Any,
    servers: list[Server],
    workers: list[multiprocessing.process.BaseProcess],
) -> dict[str, Any]:
    results: multiprocessing.queues.Queue[Any] = ctx.Queue()
    shares = [
        args.tables // args.clients + (i < args.tables % args.clients) for i in range(args.clients)
    ]
    usage = Usage(servers)
    usage.sample()
    rss_start = usage.server_rss[0] if usage.server_rss else None
    usage.server_rss.clear()
    usage.workers_rss.clear()
    load_before = os.getloadavg()
    for index, share in enumerate(shares):
        config = WorkerConfig(
            index=index,
            bases=tuple(server.base for server in servers),
            tables=share,
            seconds=args.seconds,
            think=args.think,
            seed=args.seed,
            timeout=args.timeout,
            bots=args.bots,
            hints=args.hints,
        )
        worker = ctx.Process(target=_worker, args=(config, results), daemon=True)
        worker.start()
        workers.append(worker)
    began = time.monotonic()
    kill_at = None if args.kill_one_at is None else began + args.kill_one_at
    killed_at: float | None = None
    pause_at = None if args.pause_one_at is None else began + args.pause_one_at
    paused_at: float | None = None
    stats = Stats()
    failures: list[str] = []
    received = 0
    end = began + args.seconds + FAILOVER_GIVE_UP_S + 3 * args.timeout + 30
    next_sample = began
    while received < len(workers) and time.monotonic() < end:
        now = time.monotonic()
        if kill_at is not None and killed_at is None and now >= kill_at:
            kill_group(servers[0].process)
            killed_at = now - began
            print(
                f"load: killed server {servers[0].node} at {killed_at:.1f} s",
                file=sys.stderr,
                flush=True,
            )
        if pause_at is not None and now >= pause_at:
            # A node that freezes (a long pause, a frozen machine) and then goes on.
            if paused_at is None:
                signal_group(servers[0].process, signal.SIGSTOP)
                paused_at = now - began
                pause_at = now + args.pause_for
            else:
                signal_group(servers[0].process, signal.SIGCONT)
                pause_at = None
            print(
                f"load: {'paused' if pause_at else 'resumed'} server {servers[0].node}"
                f" at {now - began:.1f} s",
                file=sys.stderr,
                flush=True,
            )
        if now >= next_sample:
            usage.sample(keep_rss=now - began <= args.seconds)
            next_sample += 1.0
        wake = min(
            next_sample,
            kill_at if kill_at is not None and killed_at is None else next_sample,
            pause_at if pause_at is not None else next_sample,
        )
        try:
            _, data = results.get(timeout=max(0.0, wake - time.monotonic()))
        except queue.Empty:
            continue
        received += 1
        if "failed" in data:
            failures.append(data["failed"])
        else:
            stats.merge(data)
    usage.sample(keep_rss=False)
    server_cpu, workers_cpu = usage.cpu()
    load_after = os.getloadavg()
    if received < len(workers):
        failures.append(f"{len(workers) - received} client process(es) did not report")
    duration = stats.elapsed_s or args.seconds
    return {
        "mode": "saturation" if args.saturate else "paced",
        "tables": args.tables,
        "clients": args.clients,
        "servers": len(servers),
        "think_s": list(args.think),
        "seconds": round(duration, 2),
        "db": "postgresql" if args.db else "sqlite",
        "decisions": stats.decisions,
        "events": stats.events,
        "hands": stats.hands,
        "matches_over": stats.matches,
        "tables_created": stats.tables,
        "errors": sum(stats.errors.values()),
        "error_kinds": dict(stats.errors),
        "rate_limited": stats.rate_limited,
        "redirects": stats.redirects,
        "failover_redirects": stats.failover_redirects,
        "killed_at_s": None if killed_at is None else round(killed_at, 2),
        "paused_at_s": None if paused_at is None else round(paused_at, 2),
        "drops": stats.drops,
        "tables_failed_over": stats.failed_over,
        "failover_s": percentiles(stats.failover_s),
        "act_ack_ms": percentiles(stats.ack_ms),
        "act_event_ms": percentiles(stats.event_ms),
        "next_ack_ms": percentiles(stats.next_ms),
        "hint_ms": percentiles(stats.hint_ms),
        "act_event_p99_by_10s": _windows(stats.event_at, stats.event_ms, 10.0),
        "create_ms": percentiles(stats.create_ms),
        "decisions_per_s": round(stats.decisions / duration, 1),
        "actions_per_s": round(stats.events / duration, 1),
        "server_rss_mb": {
            "start": _round(rss_start),
            "peak": _round(max(usage.server_rss, default=None)),
            "end": _round(usage.server_rss[-1] if usage.server_rss else None),
        },
        "bots": args.bots,
        "bot_workers": args.bot_workers,
        "bots_on": args.bots_on,
        "bot_ms": percentiles(stats.bot_ms),
        "workers_rss_mb_peak": _round(max(usage.workers_rss, default=None)),
        "workers_cpu_s": round(workers_cpu, 2),
        "workers_cpu_share": round(workers_cpu / duration, 2),
        "server_cpu_s": round(server_cpu, 2),
        "server_cpu_share": round(server_cpu / duration, 2),
        "client_cpu_s": round(stats.cpu_s, 2),
        "loadavg_before": [round(x, 2) for x in load_before],
        "loadavg_after": [round(x, 2) for x in load_after],
        "cores": os.cpu_count(),
        "failures": failures,
    }


def _windows(at: list[float], values: list[float], width: float) -> list[float | None]:
    """The p99 of ``values`` in each window of ``width`` seconds, by ``at``."""
    buckets: dict[int, list[float]] = {}
    for when, value in zip(at, values, strict=True):
        buckets.setdefault(int(when // width), []).append(value)
    last = max(buckets, default=-1)
    return [percentiles(buckets.get(i, []))["p99"] for i in range(last + 1)]


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def report(data: dict[str, Any]) -> str:
    def row(name: str, p: dict[str, Any]) -> str:
        return (
            f"  {name:<12} p50 {p['p50']} ms  p90 {p['p90']} ms  p99 {p['p99']} ms"
            f"  max {p['max']} ms  (n={p['n']})"
        )

    rss = data["server_rss_mb"]
    think = "none" if data["mode"] == "saturation" else "{}-{} s".format(*data["think_s"])
    lines = [
        f"{data['mode']} run: {data['tables']} tables, {data['seconds']} s, think {think}, "
        f"{data['clients']} client processes, {data['db']}, {data['cores']} cores, "
        f"bots {data['bots']}, bot workers "
        f"{'the default' if data['bot_workers'] is None else data['bot_workers']}"
        f"{', on ' + data['bots_on'] if data['bots_on'] else ''}, {data['servers']} server(s)",
        f"  decisions {data['decisions']}  events {data['events']}  hands {data['hands']}  "
        f"matches over {data['matches_over']}  tables created {data['tables_created']}",
        f"  errors {data['errors']} {data['error_kinds'] or ''}  "
        f"rate_limited {data['rate_limited']}  redirects (4307) {data['redirects']}",
        row("act->ack", data["act_ack_ms"]),
        row("act->event", data["act_event_ms"]),
        row("next->ack", data["next_ack_ms"]),
        row("hint", data["hint_ms"]),
        row("bot", data["bot_ms"]),
        row("create", data["create_ms"]),
        f"  p99 act->event by 10 s: {data['act_event_p99_by_10s']}",
        f"  throughput: {data['decisions_per_s']} decisions/s, {data['actions_per_s']} actions/s",
        f"  servers' RSS: start {rss['start']} MB, peak {rss['peak']} MB, end {rss['end']} MB",
        f"  servers' CPU: {data['server_cpu_s']} s ({data['server_cpu_share']} of a core); "
        f"clients {data['client_cpu_s']} s; bot workers {data['workers_cpu_s']} s "
        f"({data['workers_cpu_share']} of a core, RSS peak {data['workers_rss_mb_peak']} MB)",
        f"  load average before {data['loadavg_before']}, after {data['loadavg_after']}",
    ]
    if data["killed_at_s"] is not None or data["drops"]:
        failover = data["failover_s"]
        lines.append(
            f"  killed a server at {data['killed_at_s']} s: {data['drops']} connections dropped, "
            f"{data['tables_failed_over']} tables failed over ({data['failover_redirects']} "
            f"redirects meanwhile), failover p50 {failover['p50']} s "
            f"max {failover['max']} s (n={failover['n']})"
        )
    if data["mode"] == "paced":
        p99 = data["act_event_ms"]["p99"]
        met_latency = p99 is not None and p99 < TARGET_P99_MS
        met_memory = rss["peak"] is not None and rss["peak"] < TARGET_RSS_MB
        lines.append(
            f"  targets: p99 act->event < {TARGET_P99_MS:.0f} ms "
            f"{'met' if met_latency else 'MISSED'}; RSS < {TARGET_RSS_MB:.0f} MB "
            f"{'met' if met_memory else 'MISSED'}"
        )
    lines += [f"  FAILURE: {failure}" for failure in data["failures"]]
    return "\n".join(lines)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _think(text: str) -> tuple[float, float]:
    low, _, high = text.partition("-")
    values = (float(low), float(high or low))
    if not 0 <= values[0] <= values[1] <= 60:
        raise argparse.ArgumentTypeError("think is LOW-HIGH seconds, 0 <= LOW <= HIGH <= 60")
    return values


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Load benchmark of baloot serve (see the module docstring)."
    )
    parser.add_argument("--tables", type=int, help="tables at once (200; 50 with --saturate)")
    parser.add_argument("--seconds", type=float, help="duration (120; 30 with --saturate)")
    parser.add_argument("--think", type=_think, help="think time, LOW-HIGH s (1-3; 0 saturates)")
    parser.add_argument("--saturate", action="store_true", help="humans never pause")
    parser.add_argument("--clients", type=int, default=2, help="client processes (2)")
    parser.add_argument("--db", help="a postgresql:// URL instead of a fresh SQLite file")
    parser.add_argument("--seed", type=int, default=1, help="seed of the humans' choices")
    parser.add_argument("--timeout", type=float, default=15.0, help="answer timeout, s (15)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--bots", default="medium", help="the three bots of each table (medium)")
    parser.add_argument(
        "--bot-workers", type=int, help="the server's --bot-workers (its default when left out)"
    )
    parser.add_argument("--bots-on", metavar="ADDRESS", help="the servers' --bots-on (Ray)")
    parser.add_argument(
        "--hints", type=float, default=0.0, help="share of the human's turns it asks a hint (0)"
    )
    parser.add_argument(
        "--servers", type=int, default=1, help="baloot serve nodes over the one --db (1)"
    )
    parser.add_argument(
        "--kill-one-at",
        type=float,
        metavar="SECONDS",
        help="SIGKILL the first server then (with --servers 2 or more): the clients fail over",
    )
    parser.add_argument(
        "--pause-one-at",
        type=float,
        metavar="SECONDS",
        help="SIGSTOP the first server then, and SIGCONT it --pause-for seconds later",
    )
    parser.add_argument(
        "--pause-for", type=float, default=3.0, help="how long the pause lasts, s (3)"
    )
    args = parser.parse_args(argv)
    if args.saturate:
        args.tables = args.tables or 50
        args.seconds = args.seconds or 30.0
        args.think = (0.0, 0.0)
    else:
        args.tables = args.tables or 200
        args.seconds = args.seconds or 120.0
        args.think = args.think or (1.0, 3.0)
    if not 1 <= args.clients <= 64 or not 1 <= args.tables <= 2000:
        parser.error("--clients is 1-64 and --tables 1-2000")
    if not 1 <= args.seconds <= 3600 or not 1 <= args.timeout <= 120:
        parser.error("--seconds is 1-3600 and --timeout 1-120")
    if not 1 <= args.servers <= 16:
        parser.error("--servers is 1-16")
    if not 0 <= args.hints <= 1:
        parser.error("--hints is a share of the turns, 0-1")
    if args.servers > 1 and not str(args.db or "").startswith(("postgresql://", "postgres://")):
        parser.error("--servers 2 or more share one database: give --db postgresql://…")
    if args.kill_one_at is not None:
        if args.servers < 2:
            parser.error("--kill-one-at needs --servers 2 or more (another node to go on)")
        if not 0 < args.kill_one_at < args.seconds:
            parser.error("--kill-one-at is a time within --seconds")
    if args.pause_one_at is not None and not (
        0 < args.pause_one_at < args.seconds and 0 < args.pause_for <= 600
    ):
        parser.error("--pause-one-at is a time within --seconds, --pause-for 0-600 s")
    args.clients = min(args.clients, args.tables)
    # Ctrl-C and SIGTERM both unwind through the finally blocks that stop the server and
    # the clients (even when started with SIGINT ignored, as a background job is).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        data = run(args)
    except KeyboardInterrupt:
        print("load: interrupted; the server and the clients were stopped", file=sys.stderr)
        return 130
    print(json.dumps(data, indent=2) if args.json else report(data))
    return 1 if data["failures"] else 0


if __name__ == "__main__":
    with contextlib.suppress(BrokenPipeError):
        sys.exit(main())
