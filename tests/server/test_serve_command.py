"""``baloot serve`` as a person runs it: it prints the address, serves the pages and the
sockets, keeps seat tokens out of its log, closes connections that send no request, refuses
what it cannot do with one line and status 2, and ends cleanly on SIGTERM and Ctrl-C."""

from __future__ import annotations

import http.client
import json
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from helpers import CRASHING_BOT, ROOT, WAIT, free_port, wait_for
from websockets.sync.client import connect

from baloot.server.players.ratings import LEADERBOARD_MATCHES
from baloot.server.storage import open_store

BALOOT = [sys.executable, "-m", "baloot"]


def run(*args: str, timeout: float = WAIT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*BALOOT, *args], capture_output=True, text=True, timeout=timeout, check=False
    )


class Serving:
    """A ``baloot serve`` process and its address; what it writes on standard output (the
    banner, the access log) is in ``output``, on standard error in ``log``."""

    def __init__(self, tmp_path: Path, *options: str, ignoring: int | None = None) -> None:
        """Start the server; ``ignoring`` names a signal it starts with ignored, as a shell's
        background job starts with SIGINT ignored."""
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.output = tmp_path / "serve.out"
        self.log = tmp_path / "serve.log"

        self.process = subprocess.Popen(
            [*BALOOT, "serve", "--port", str(self.port), "--db", str(tmp_path / "t.db"), *options],
            stdout=self.output.open("w"),
            stderr=self.log.open("w"),
            preexec_fn=None
            if ignoring is None
            else partial(signal.signal, ignoring, signal.SIG_IGN),
        )
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + "/api/options", timeout=2).close()
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise AssertionError("the server never answered")
        self.banner = self.output.read_text().partition("\n")[0]  # written before it serves

    def post(self, path: str, body: object) -> dict[str, object]:
        request = urllib.request.Request(
            self.url + path, data=json.dumps(body).encode(), method="POST"
        )
        with urllib.request.urlopen(request, timeout=WAIT) as response:
            answer: dict[str, object] = json.loads(response.read())
            return answer

    def stop(self, sig: int = signal.SIGTERM) -> int:
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            return self.process.wait(timeout=WAIT)
        finally:
            if self.process.poll() is None:
                self.process.kill()


@pytest.fixture
def serving(tmp_path: Path) -> Iterator[Serving]:
    server = Serving(tmp_path)
    yield server
    server.stop()


def test_serve_prints_the_address_to_open(serving: Serving) -> None:
    assert f"http://127.0.0.1:{serving.port}/" in serving.banner
    with urllib.request.urlopen(serving.url + "/?lang=ar", timeout=WAIT) as page:
        assert '<html lang="ar" dir="rtl"' in page.read().decode()


#: Ways of asking for a page and a socket with a seat's token in the query.
TOKEN_QUERIES = (
    "token={token}",
    "lang=ar&%74oken={token}",  # the server decodes the name: it reads the token
    "to%6B%65n={token}",
    "token=another-secret&token={token}",  # the server reads the last one
    "+token={token}",  # the server reads no token from these; a log keeps none either
    "token%20={token}",
    "TOKEN={token}",
    "lang=ar;token={token}",
    "lang=ar?token={token}",
)


def test_seat_tokens_never_reach_the_log(tmp_path: Path) -> None:
    """Every way of putting a token in the query, each at a table of its own, one server."""
    serving = Serving(tmp_path)
    asked: dict[str, tuple[str, str]] = {}  # query -> (table, token)
    try:
        for query in TOKEN_QUERIES:
            created = serving.post("/api/tables", {"seats": {"S": "human"}})
            seats = created["seats"]
            assert isinstance(seats, dict)
            table, token = str(created["table"]), seats["S"]["token"]
            asked[query] = (table, token)
            with urllib.request.urlopen(
                f"{serving.url}/t/{table}?{query.format(token=token)}"
            ) as page:
                assert page.status == 200
            ws_url = f"ws://127.0.0.1:{serving.port}/ws/tables/{table}?{query.format(token=token)}"
            with connect(ws_url) as ws:
                assert json.loads(ws.recv(timeout=WAIT))["type"] == "snapshot"
        assert serving.stop() == -signal.SIGTERM
    finally:
        serving.stop()
    log = serving.output.read_text() + serving.log.read_text()  # the access log, the sockets'
    assert "=…" in log and "another-secret" not in log
    for query, (table, token) in asked.items():
        assert f"/t/{table}?" in log and f"/ws/tables/{table}?" in log, query
        assert token not in log, query


def test_sigterm_ends_the_server_cleanly_and_keeps_the_tables(tmp_path: Path) -> None:
    server = Serving(tmp_path)
    created = server.post("/api/tables", {"seats": {"S": "human"}})
    status = server.stop(signal.SIGTERM)
    assert status == -signal.SIGTERM  # the shell's 143
    assert "Traceback" not in server.log.read_text()
    again = Serving(tmp_path)
    try:
        with urllib.request.urlopen(f"{again.url}/api/tables/{created['table']}") as answer:
            assert json.loads(answer.read())["status"] == "playing"
    finally:
        again.stop()


def test_ctrl_c_ends_the_server_without_a_traceback(tmp_path: Path) -> None:
    server = Serving(tmp_path)
    assert server.stop(signal.SIGINT) == 130
    assert "Traceback" not in server.log.read_text()


def test_a_second_ctrl_c_stops_the_server_at_once_without_a_traceback(tmp_path: Path) -> None:
    """The first one waits for the connections to close; the second does not, and cancels
    the app's shutdown, which is not an error to show."""
    server = Serving(tmp_path)
    created = server.post("/api/tables", {"seats": {"S": "human"}})
    token = created["seats"]["S"]["token"]  # type: ignore[index]
    ws_url = f"ws://127.0.0.1:{server.port}/ws/tables/{created['table']}?token={token}"
    with connect(ws_url) as ws:
        assert json.loads(ws.recv(timeout=WAIT))["type"] == "snapshot"
        server.process.send_signal(signal.SIGINT)
        assert wait_for(lambda: "Shutting down" in server.log.read_text())
        assert server.stop(signal.SIGINT) == 130
    assert "Traceback" not in server.log.read_text()


@pytest.mark.parametrize("attempt", range(3))
@pytest.mark.parametrize(
    ("sent", "ignoring", "status"),
    [
        (signal.SIGINT, None, 130),
        (signal.SIGINT, signal.SIGINT, 130),  # `baloot serve &` in a script, then `kill -INT`
        (signal.SIGTERM, signal.SIGTERM, -signal.SIGTERM),
    ],
)
def test_a_signal_to_the_server_alone_stops_it_with_its_status_even_if_it_started_ignored(
    tmp_path: Path, sent: int, ignoring: int | None, status: int, attempt: int
) -> None:
    server = Serving(tmp_path, ignoring=ignoring)
    created = server.post("/api/tables", {"seats": {s: "human" for s in "NESW"}})
    with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{created['table']}") as ws:
        assert json.loads(ws.recv(timeout=5))["type"] == "snapshot"
        assert server.stop(sent) == status
    assert "Traceback" not in server.log.read_text()


def test_a_port_in_use_is_one_line_and_status_2(serving: Serving, tmp_path: Path) -> None:
    done = run("serve", "--port", str(serving.port), "--db", str(tmp_path / "other.db"))
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"baloot serve: port {serving.port} is in use: choose another with --port"
    )


def test_an_unusable_database_is_one_line_and_status_2(tmp_path: Path) -> None:
    done = run("serve", "--port", str(free_port()), "--db", str(tmp_path))
    assert done.returncode == 2
    assert done.stderr.startswith("baloot serve: cannot open the database")
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_postgresql_password_is_not_shown_when_the_database_is_unreachable() -> None:
    url = f"postgresql://baloot:sekrit@127.0.0.1:{free_port()}/none"
    done = run("serve", "--port", str(free_port()), "--db", url)
    assert done.returncode == 2 and "sekrit" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_serve_is_listed_by_baloot_help_with_its_options() -> None:
    assert "serve" in run("--help").stdout
    shown = run("serve", "--help").stdout
    options = ("--host", "--port", "--db", "--idle-days", "--node", "--public-url")
    for option in (*options, "--leaderboard-matches"):
        assert option in shown
    assert "close code 4307" in " ".join(shown.split())
    # The leaderboard's default, as the ratings keep it (the help does not import them).
    assert f"leaderboard (default {LEADERBOARD_MATCHES};" in " ".join(shown.split())


@pytest.mark.parametrize(
    ("option", "value", "says"),
    [
        ("--port", "70000", "--port is 1 to 65535, not 70000"),
        ("--idle-days", "nan", "--idle-days is above 0, at most 3650, not nan"),
        ("--idle-days", "inf", "--idle-days is above 0, at most 3650, not inf"),
        ("--idle-days", "0", "--idle-days is above 0, at most 3650, not 0.0"),
        ("--bot-pause", "nan", "--bot-pause is 0 to 10 seconds, not nan"),
        ("--bot-pause", "-inf", "--bot-pause is 0 to 10 seconds, not -inf"),
        ("--tables-per-minute", "-1", "--tables-per-minute is 0 (no limit) to 10000, not -1"),
        ("--tables-per-minute", "9" * 400, "--tables-per-minute is 0 (no limit) to 10000"),
        ("--leaderboard-matches", "0", "--leaderboard-matches is 1 to 10000, not 0"),
        ("--leaderboard-matches", "10001", "--leaderboard-matches is 1 to 10000, not 10001"),
        ("--keep-alive", "0", "--keep-alive is 1 to 300 seconds, not 0"),
        ("--header-timeout", "301", "--header-timeout is 1 to 300 seconds, not 301"),
        ("--host", "", "--host is an address to listen on"),
        ("--host", " ", "--host is an address to listen on"),
        ("--db", "", "--db is a SQLite file or a postgresql:// URL, not empty"),
        ("--bot-workers", "-1", "--bot-workers is 0 to 256, not -1"),
        ("--bot-workers", "257", "--bot-workers is 0 to 256, not 257"),
        ("--bots-on", " ", "--bots-on is a Ray address"),
        ("--node", "", "--node is 1 to 64 letters, digits"),
        ("--node", "a b", "--node is 1 to 64 letters, digits, '.', '_', ':' or '-', not 'a b'"),
        ("--node", "n" * 65, "--node is 1 to 64 letters"),
        ("--public-url", "a.example", "--public-url is an http:// or https:// origin"),
        ("--public-url", "ftp://a.example", "--public-url is an http:// or https:// origin"),
        ("--public-url", "https://a.example/baloot", "--public-url is an http:// or https://"),
        ("--public-url", "https://a.example/?x=1", "--public-url is an http:// or https://"),
        ("--public-url", "https://" + "a" * 120 + ".example", "--public-url is at most 123 bytes"),
    ],
)
def test_bad_options_are_refused_with_status_2(
    tmp_path: Path, option: str, value: str, says: str
) -> None:
    port_and_db = ["--port", str(free_port()), "--db", str(tmp_path / "t.db")]
    done = run("serve", *port_and_db, f"{option}={value}", timeout=15)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert done.stderr.startswith(f"baloot serve: {says}")


def test_a_database_whose_schema_version_was_emptied_is_one_line_and_status_2(
    tmp_path: Path,
) -> None:
    database = tmp_path / "t.db"
    open_store(str(database)).close()
    emptied = sqlite3.connect(database)
    with emptied:
        emptied.execute("DELETE FROM schema_version")
    emptied.close()
    done = run("serve", "--port", str(free_port()), "--db", str(database))
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert f"the SQLite database {database} has tables but no schema version" in done.stderr
    assert "restore it from a backup" in done.stderr


@pytest.fixture(scope="module")
def impatient(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Serving]:
    """One server for the tests of its timeouts: a second to send a request's headers, and
    a second for a kept-alive connection's next request."""
    server = Serving(
        tmp_path_factory.mktemp("impatient"), "--keep-alive", "1", "--header-timeout", "1"
    )
    yield server
    server.stop()


@pytest.mark.parametrize(
    "sent",
    [
        b"",  # a connection that sends nothing
        b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\n",  # half its headers, then nothing
        b"GET /api/opt",  # half its request line
    ],
)
def test_a_connection_that_sends_no_whole_request_in_time_is_closed(
    impatient: Serving, sent: bytes
) -> None:
    with socket.create_connection(("127.0.0.1", impatient.port), timeout=60) as client:
        client.sendall(sent)
        assert client.recv(65536) == b""  # closed by the server, with no answer


@pytest.mark.parametrize("then", [b"", b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\n"])
def test_a_kept_alive_connection_is_closed_when_idle_or_slow_to_send_its_next_request(
    impatient: Serving, then: bytes
) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", impatient.port, timeout=60)
    try:
        connection.request("GET", "/api/options")
        with connection.getresponse() as answer:
            assert answer.status == 200 and answer.read()
        assert connection.sock is not None  # kept alive
        connection.sock.sendall(then)
        assert connection.sock.recv(65536) == b""
    finally:
        connection.close()


def test_a_quiet_websocket_outlives_the_connection_timeouts(impatient: Serving) -> None:
    created = impatient.post("/api/tables", {"seats": {s: "human" for s in "NESW"}})
    with connect(f"ws://127.0.0.1:{impatient.port}/ws/tables/{created['table']}") as ws:
        assert json.loads(ws.recv(timeout=5))["type"] == "snapshot"
        time.sleep(3)  # three times each timeout, in which nothing is sent either way
        assert ws.ping().wait(timeout=10)  # the server answers: the socket is open


SAMPLE = ROOT / "examples" / "sample_bot.py"


def running(script: Path) -> int:
    """How many processes run ``script`` now."""
    found = 0
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            found += str(script).encode() in cmdline.read_bytes().split(b"\0")
        except OSError:
            continue
    return found


def refused(serving: Serving, body: object) -> str:
    try:
        serving.post("/api/tables", body)
    except urllib.error.HTTPError as error:
        assert error.code == 400
        message: str = json.loads(error.read())["error"]
        return message
    raise AssertionError("the table was created")


def watch_until(serving: Serving, table: object, kind: str, limit: float = WAIT) -> dict[str, Any]:
    with connect(f"ws://127.0.0.1:{serving.port}/ws/tables/{table}") as ws:
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            message: dict[str, Any] = json.loads(ws.recv(timeout=limit))
            if message["type"] == kind:
                return message
    raise AssertionError(f"no {kind}")


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="counts processes in /proc")
def test_an_operator_bot_plays_as_one_process_per_seat_until_shutdown_and_may_be_offered_first(
    tmp_path: Path,
) -> None:
    bot = tmp_path / "house_bot.py"
    bot.write_text(SAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    serving = Serving(tmp_path, "--bot", f"house={bot}", "--bot-pause", "0", "--lobby-bot", "house")
    try:
        with urllib.request.urlopen(serving.url + "/api/options", timeout=WAIT) as answer:
            options = json.loads(answer.read())
        assert "house" in options["bots"] and options["default_bot"] == "house"
        created = serving.post("/api/tables", {"seats": {s: "bot:house" for s in "NESW"}})
        over = watch_until(serving, created["table"], "hand-over")
        assert over["view"]["result"] is not None
        with urllib.request.urlopen(f"{serving.url}/api/tables/{created['table']}") as answer:
            assert set(json.loads(answer.read())["players"].values()) == {"bot:house"}
        assert running(bot) == 4
        assert serving.stop() == -signal.SIGTERM
    finally:
        serving.stop()
    log = serving.log.read_text()
    assert "bot:house says playing" in log and "Traceback" not in log
    assert str(bot) not in log  # a client never learns the operator's command
    assert running(bot) == 0


def test_a_failing_operator_bot_is_stood_in_for_shown_not_answering_and_the_table_goes_on(
    tmp_path: Path,
) -> None:
    bot = tmp_path / "crashing_bot.py"
    bot.write_text(CRASHING_BOT, encoding="utf-8")
    serving = Serving(tmp_path, "--bot", f"crashing={bot}", "--bot-pause", "0")
    try:
        created = serving.post("/api/tables", {"seats": {"N": "bot:crashing"}})
        with connect(f"ws://127.0.0.1:{serving.port}/ws/tables/{created['table']}") as ws:
            shown: list[bool] = []  # what the watcher is told of North's connection
            while True:
                message = json.loads(ws.recv(timeout=WAIT))
                if message["type"] == "snapshot":
                    shown.append(message["seats"]["N"]["connected"])
                elif message["type"] == "seat" and message["seat"] == "N":
                    shown.append(message["connected"])
                elif message["type"] == "hand-over":
                    break
        assert shown[-1] is False  # the players see that the program does not answer
    finally:
        serving.stop()
    log = serving.log.read_text()
    assert "bot crashing at N failed (crashed)" in log
    assert "the heuristic bot played that decision" in log


def test_a_client_cannot_seat_a_command_or_a_path(serving: Serving) -> None:
    for player in ("bot:cmd:python3 -c 1", f"bot:{SAMPLE}", "bot:./x"):
        message = refused(serving, {"seats": {"N": player}})
        assert message.startswith("seat N: bot ") and "only registered bots are taken" in message
    assert "option 'x' is not taken at a web table" in refused(
        serving, {"seats": {"N": "bot:heuristic:x"}}
    )


@pytest.mark.parametrize(
    ("option", "says"),
    [
        ("heuristic=python3 x.py", "--bot heuristic=…: bot:heuristic is taken"),
        ("mine=no-such-command-here", "'no-such-command-here' is not found"),
        ("mine", "--bot takes NAME=COMMAND, not 'mine'"),
        ("a b=python3 x.py", "a bot is NAME[:OPTIONS]"),
        ("--lobby-bot=nobody", "--lobby-bot: no bot 'nobody'"),
        ("--lobby-bot=expert:hard", "--lobby-bot: no bot 'expert:hard'"),
    ],
)
def test_a_bad_bot_option_is_one_line_and_status_2(option: str, says: str) -> None:
    given = [option] if option.startswith("--") else ["--bot", option]
    done = run("serve", "--port", str(free_port()), *given)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert says in done.stderr
