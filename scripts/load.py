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
``hand-over`` it sends ``next``. A table whose match is over is replaced by a new one, so the
number of tables in play stays the same. The protocol is ``seat-view.md`` §4.

Two runs::

    # paced: 200 tables, people thinking 1-3 s per decision, for 120 s
    PYTHONPATH=src .venv/bin/python scripts/load.py
    # saturation: 50 tables whose humans never pause (20 messages/s per connection at most)
    PYTHONPATH=src .venv/bin/python scripts/load.py --saturate
    # options: --tables N --seconds S --think 1-3 --clients 2 --db postgresql://… --json
    #          --bots heuristic --bot-workers 2 (the server's; 0: its threads)

Measured per human decision: act -> ack, and act -> the numbered message that follows the
ack (the ``event`` of the action itself), in milliseconds; ``next`` -> ack separately.
Errors: every ``reject`` (``rate_limited`` counted apart), unexpected close, exception,
timeout (no answer within ``--timeout`` seconds), a gap in ``v``. The server's memory (VmRSS
of /proc/PID/status) is sampled every second (peak and end), and its CPU time read from
/proc/PID/stat, and those of its bot worker processes (its children) apart. A bot's
decision is timed as the human sees it: from the numbered message before a bot's event to
that event. Throughput: decisions/s (human acts acknowledged) and actions/s (``event``
messages, bots' included).

Targets, for the paced run of 200 tables: p99 of act -> event under 100 ms, and the server's
memory under 500 MB. The exit status is 0 when the run completed (targets met or not), 1 when
it could not run (the server did not start, a client process failed).

Everything stays on 127.0.0.1; the run stops by itself after ``--seconds``; the server and
the client processes are stopped on the way out, Ctrl-C included.
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
ROOT: Final = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class WorkerConfig:
    """What one client process plays: ``tables`` slots on the server at ``base``."""

    index: int
    base: str
    tables: int
    seconds: float
    think: tuple[float, float]
    seed: int
    timeout: float
    bots: str


@dataclass
class Stats:
    """What one client process measured (plain data, sent back to the main process)."""

    ack_ms: list[float] = field(default_factory=list)
    event_ms: list[float] = field(default_factory=list)
    #: When each act of ``event_ms`` was sent, in seconds from the start.
    event_at: list[float] = field(default_factory=list)
    next_ms: list[float] = field(default_factory=list)
    bot_ms: list[float] = field(default_factory=list)
    create_ms: list[float] = field(default_factory=list)
    decisions: int = 0
    events: int = 0
    hands: int = 0
    matches: int = 0
    tables: int = 0
    rate_limited: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    cpu_s: float = 0.0
    elapsed_s: float = 0.0

    def to_json(self) -> dict[str, Any]:
        out = dict(self.__dict__)
        out["errors"] = dict(self.errors)
        return out

    def merge(self, data: dict[str, Any]) -> None:
        for name in ("ack_ms", "event_ms", "event_at", "next_ms", "bot_ms", "create_ms"):
            getattr(self, name).extend(data[name])
        for name in ("decisions", "events", "hands", "matches", "tables", "rate_limited"):
            setattr(self, name, getattr(self, name) + data[name])
        self.errors.update(data["errors"])
        self.cpu_s += data["cpu_s"]
        self.elapsed_s = max(self.elapsed_s, data["elapsed_s"])


# ---------------------------------------------------------------------- the client processes


class _TableOver(Exception):
    """The table's match is over (or it failed): the slot goes on with a new table."""


class Client:
    """One client process's event loop: its slots, each one human at one table at a time."""

    def __init__(self, config: WorkerConfig) -> None:
        self.config = config
        self.stats = Stats()
        self.deadline = 0.0
        self.start = 0.0
        self.creating = asyncio.Semaphore(CREATING)

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
                await self.play(created[0], created[1], rng)
            except Exception as error:  # counted, and the slot goes on with a new table
                self.stats.errors[f"exception:{type(error).__name__}"] += 1

    async def create(self) -> tuple[str, str] | None:
        """A new table: its id and the human's token (None after an error, counted)."""
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
        request = urllib.request.Request(
            f"http://{self.config.base}/api/tables",
            data=body,
            headers={"content-type": "application/json"},
            method="POST",
        )

        def post() -> dict[str, Any]:
            with urllib.request.urlopen(request, timeout=self.config.timeout) as response:
                if response.status != 201:
                    raise urllib.error.URLError(f"status {response.status}")
                answer: dict[str, Any] = json.loads(response.read())
                return answer

        async with self.creating:
            began = time.perf_counter()
            try:
                answer = await asyncio.to_thread(post)
            except urllib.error.HTTPError as error:
                self.stats.errors[f"create:http-{error.code}"] += 1
                return None
            except Exception as error:
                self.stats.errors[f"create:{type(error).__name__}"] += 1
                return None
            self.stats.create_ms.append((time.perf_counter() - began) * 1000)
        self.stats.tables += 1
        return str(answer["table"]), str(answer["seats"][SEAT]["token"])

    async def play(self, table: str, token: str, rng: random.Random) -> None:
        """Play one table until its match is over, an error, or the deadline."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed

        stats = self.stats
        low, high = self.config.think
        timeout = self.config.timeout
        uri = f"ws://{self.config.base}/ws/tables/{table}?token={token}"
        async with connect(
            uri, open_timeout=timeout, close_timeout=2, ping_interval=None, max_size=2**22
        ) as ws:
            view: dict[str, Any] = {}
            v = -1
            numbers = 0
            # The message in flight: its kind ("act"/"next"), id, when sent, when acked.
            pending: tuple[str, str, float, float | None] | None = None
            scheduled: tuple[str, float] | None = None  # what to send next, and when
            last_sent = 0.0
            last_heard = time.perf_counter()
            awaiting_next = False

            async def send(kind: str, now: float) -> tuple[str, str, float, float | None]:
                nonlocal numbers, last_sent
                numbers += 1
                id_ = f"{kind[0]}{numbers}"
                message: dict[str, Any] = {"type": kind, "id": id_}
                if kind == "act":
                    message["action"] = rng.choice(view["legal"])
                last_sent = now
                await ws.send(json.dumps(message))
                return kind, id_, now, None

            while True:
                now = time.perf_counter()
                if now >= self.deadline:
                    return
                until = self.deadline
                if scheduled is not None:
                    until = min(until, scheduled[1])
                if pending is not None:
                    until = min(until, pending[2] + timeout)
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
                    elif pending is not None and now >= pending[2] + timeout:
                        stats.errors[f"timeout:{pending[0]}"] += 1
                        return
                    elif pending is None and scheduled is None and now >= last_heard + timeout:
                        stats.errors["timeout:silence"] += 1
                        return
                    continue
                except ConnectionClosed as closed:
                    stats.errors[f"closed:{closed.rcvd.code if closed.rcvd else 'none'}"] += 1
                    return
                now = time.perf_counter()
                heard_before, last_heard = last_heard, now
                message = json.loads(raw)
                kind = message.get("type")
                if "v" in message:
                    if kind != "snapshot" and v >= 0 and message["v"] != v + 1:
                        stats.errors["v_gap"] += 1
                    v = message["v"]
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
                        else:
                            stats.next_ms.append(took)
                        pending = pending[0], pending[1], pending[2], now
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
                    continue
                if kind in ("snapshot", "event", "deal", "hand-over"):
                    view = message["view"]
                if kind == "event":
                    stats.events += 1
                    if not str(message.get("action", "")).startswith(SEAT):
                        stats.bot_ms.append((now - heard_before) * 1000)
                if kind in ("snapshot", "deal", "hand-over"):
                    match = message["match"]
                    if match.get("winner") is not None:
                        stats.matches += 1
                        return
                    awaiting_next = SEAT in match.get("awaiting_next", [])
                if kind == "hand-over":
                    stats.hands += 1
                if pending is not None or scheduled is not None:
                    continue
                think = rng.uniform(low, high) if high > 0 else 0.0
                at = max(now + think, last_sent + MIN_INTERVAL)
                if view.get("to_act") == SEAT and view.get("legal"):
                    scheduled = "act", at
                elif view.get("phase") == "over" and awaiting_next:
                    scheduled = "next", at
                    awaiting_next = False


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
    port: int, db: str, log: IO[bytes], bot_workers: int | None = None
) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT / "src"), env.get("PYTHONPATH", "")) if p
    )
    command = [sys.executable, "-m", "baloot", "serve", "--host", HOST, "--port", str(port)]
    command += ["--db", db, "--bot-pause", "0", "--tables-per-minute", "0"]
    if bot_workers is not None:
        command += ["--bot-workers", str(bot_workers)]
    # A session of its own: Ctrl-C reaches this process only, which then stops the server.
    return subprocess.Popen(
        command, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
    )


def wait_ready(server: subprocess.Popen[bytes], port: int, seconds: float = 30.0) -> bool:
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
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=10)
    return server.returncode


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


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Start the server and the clients, measure, stop everything: the report's data."""
    ctx = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory(prefix="baloot-load-") as tmp:
        db = args.db or str(Path(tmp) / "tables.db")
        log_path = Path(tmp) / "server.log"
        port = free_port()
        with log_path.open("wb") as log:
            server = start_server(port, db, log, args.bot_workers)
            workers: list[multiprocessing.process.BaseProcess] = []
            try:
                if not wait_ready(server, port):
                    tail = log_path.read_text(errors="replace")[-2000:]
                    raise SystemExit(f"load: the server did not start\n{tail}")
                print(
                    f"load: server pid {server.pid} on {HOST}:{port}", file=sys.stderr, flush=True
                )
                return _measure(args, ctx, server, port, workers)
            finally:
                for worker in workers:
                    if worker.is_alive():
                        worker.terminate()
                for worker in workers:
                    worker.join(timeout=5)
                    if worker.is_alive():
                        worker.kill()
                        worker.join(timeout=5)
                stop_server(server)


def _measure(
    args: argparse.Namespace,
    ctx: Any,
    server: subprocess.Popen[bytes],
    port: int,
    workers: list[multiprocessing.process.BaseProcess],
) -> dict[str, Any]:
    results: multiprocessing.queues.Queue[Any] = ctx.Queue()
    shares = [
        args.tables // args.clients + (i < args.tables % args.clients) for i in range(args.clients)
    ]
    cpu_before = cpu_s(server.pid) or 0.0
    workers_before = _cpu_of(children_of(server.pid))
    rss_start = rss_mb(server.pid)
    load_before = os.getloadavg()
    for index, share in enumerate(shares):
        config = WorkerConfig(
            index=index,
            base=f"{HOST}:{port}",
            tables=share,
            seconds=args.seconds,
            think=args.think,
            seed=args.seed,
            timeout=args.timeout,
            bots=args.bots,
        )
        worker = ctx.Process(target=_worker, args=(config, results), daemon=True)
        worker.start()
        workers.append(worker)
    began = time.monotonic()
    samples: list[float] = []
    worker_samples: list[float] = []
    stats = Stats()
    failures: list[str] = []
    received = 0
    end = began + args.seconds + 3 * args.timeout + 30  # the clients stop by themselves
    next_sample = began
    while received < len(workers) and time.monotonic() < end:
        now = time.monotonic()
        if now >= next_sample:
            rss = rss_mb(server.pid)
            if rss is not None and now - began <= args.seconds:
                samples.append(rss)
                children = [rss_mb(pid) for pid in children_of(server.pid)]
                worker_samples.append(sum(mb for mb in children if mb is not None))
            next_sample += 1.0
        try:
            _, data = results.get(timeout=max(0.0, next_sample - time.monotonic()))
        except queue.Empty:
            continue
        received += 1
        if "failed" in data:
            failures.append(data["failed"])
        else:
            stats.merge(data)
    cpu_after = cpu_s(server.pid) or 0.0
    workers_after = _cpu_of(children_of(server.pid))
    workers_cpu = sum(t - workers_before.get(pid, 0.0) for pid, t in workers_after.items())
    load_after = os.getloadavg()
    if received < len(workers):
        failures.append(f"{len(workers) - received} client process(es) did not report")
    duration = stats.elapsed_s or args.seconds
    return {
        "mode": "saturation" if args.saturate else "paced",
        "tables": args.tables,
        "clients": args.clients,
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
        "act_ack_ms": percentiles(stats.ack_ms),
        "act_event_ms": percentiles(stats.event_ms),
        "next_ack_ms": percentiles(stats.next_ms),
        "act_event_p99_by_10s": _windows(stats.event_at, stats.event_ms, 10.0),
        "create_ms": percentiles(stats.create_ms),
        "decisions_per_s": round(stats.decisions / duration, 1),
        "actions_per_s": round(stats.events / duration, 1),
        "server_rss_mb": {
            "start": _round(rss_start),
            "peak": _round(max(samples, default=None)),
            "end": _round(samples[-1] if samples else None),
        },
        "bots": args.bots,
        "bot_workers": args.bot_workers,
        "bot_ms": percentiles(stats.bot_ms),
        "workers_rss_mb_peak": _round(max(worker_samples, default=None)),
        "workers_cpu_s": round(workers_cpu, 2),
        "workers_cpu_share": round(workers_cpu / duration, 2),
        "server_cpu_s": round(cpu_after - cpu_before, 2),
        "server_cpu_share": round((cpu_after - cpu_before) / duration, 2),
        "client_cpu_s": round(stats.cpu_s, 2),
        "loadavg_before": [round(x, 2) for x in load_before],
        "loadavg_after": [round(x, 2) for x in load_after],
        "cores": os.cpu_count(),
        "failures": failures,
    }


def _cpu_of(pids: list[int]) -> dict[int, float]:
    return {pid: t for pid in pids if (t := cpu_s(pid)) is not None}


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
        f"{'the default' if data['bot_workers'] is None else data['bot_workers']}",
        f"  decisions {data['decisions']}  events {data['events']}  hands {data['hands']}  "
        f"matches over {data['matches_over']}  tables created {data['tables_created']}",
        f"  errors {data['errors']} {data['error_kinds'] or ''}  "
        f"rate_limited {data['rate_limited']}",
        row("act->ack", data["act_ack_ms"]),
        row("act->event", data["act_event_ms"]),
        row("next->ack", data["next_ack_ms"]),
        row("bot", data["bot_ms"]),
        row("create", data["create_ms"]),
        f"  p99 act->event by 10 s: {data['act_event_p99_by_10s']}",
        f"  throughput: {data['decisions_per_s']} decisions/s, {data['actions_per_s']} actions/s",
        f"  server RSS: start {rss['start']} MB, peak {rss['peak']} MB, end {rss['end']} MB",
        f"  server CPU: {data['server_cpu_s']} s ({data['server_cpu_share']} of a core); "
        f"clients {data['client_cpu_s']} s; bot workers {data['workers_cpu_s']} s "
        f"({data['workers_cpu_share']} of a core, RSS peak {data['workers_rss_mb_peak']} MB)",
        f"  load average before {data['loadavg_before']}, after {data['loadavg_after']}",
    ]
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
