"""``baloot serve``: the tables in the browser, on uvicorn.

The command line (:mod:`baloot.cli`) lists this command without importing the server: the
``baloot`` entry point hands it :func:`add_arguments` and :func:`run`. The web stack is
imported by :func:`run` alone, so that ``baloot replay`` starts as fast as before.

Seat tokens travel in links (``/t/ID?token=…``); the access log writes them as ``token=…``.
SIGINT and SIGTERM are handled here for the whole command: while the server starts, the first
one stops the start; once it serves, the first one stops it cleanly and a second one at once.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import logging
import os
import random
import re
import signal
import socket
import sys
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Final
from urllib.parse import unquote_plus, urlsplit

from baloot.bots.base import available_bots, make_bot
from baloot.bots.levels import DEFAULT_OPPONENT, ROLES
from baloot.core.errors import BalootError, first_line

if TYPE_CHECKING:
    import uvicorn

    from baloot.bots.base import OptionsFactory
    from baloot.bots.guarded import GuardedBot
    from baloot.bots.names import BotOptions, Program

#: Status of a command that could not start (bad address, port in use, unusable database).
CANNOT_START: Final = 2
#: Status after SIGINT (after SIGTERM the server stops the same way and ends by that signal,
#: the shell's 143).
INTERRUPTED: Final = 130
#: The log of the operator's bot programs: their standard error, and their failures.
BOTS_LOG: Final = "baloot.server.bots"
#: The log of the bots' Ray deciders (``--bots-on``).
CLUSTER_LOG: Final = "baloot.bots.ray_workers"
#: Seconds a connection may stay idle after a response before it is closed (``--keep-alive``).
KEEP_ALIVE: Final = 5
#: Seconds a connection has to send a request's line and headers, from its opening or from the
#: first byte of the request, before it is closed (``--header-timeout``).
HEADER_TIMEOUT: Final = 10
#: The most either timeout may be set to, in seconds.
MAX_TIMEOUT: Final = 300
#: The most ``--idle-days`` may be: ten years.
MAX_IDLE_DAYS: Final = 3650
#: The most ``--tables-per-minute`` may be.
MAX_TABLES_PER_MINUTE: Final = 10_000
#: The most ``--leaderboard-matches`` may be.
MAX_LEADERBOARD_MATCHES: Final = 10_000
#: The most bot worker processes one server starts.
MAX_BOT_WORKERS: Final = 256
#: The most bytes ``--public-url`` may have: a WebSocket close reason carries it (RFC 6455
#: leaves 123 bytes for the reason).
MAX_PUBLIC_URL: Final = 123
#: What a node's name may be.
_NODE = re.compile(r"[A-Za-z0-9._:-]{1,64}")
#: The query of a URL in a log line: from ``?`` to a space, a quote or an angle bracket.
_QUERY = re.compile(r"\?[^\s\"'<>]*")
#: One parameter of a query: the server separates them by ``&``; ``;`` and ``?`` are
#: separators too here, so that a token after them in a link made by hand is hidden as well.
_PARAMETER = re.compile(r"[^&;?]+")

HELP: Final = "serve tables in the browser: play with friends and bots, in Arabic or English"
EPILOG: Final = """\
examples:
  baloot serve                         # http://127.0.0.1:8000/ on this computer only
  baloot serve --host 0.0.0.0          # friends on the same network open http://YOUR-IP:8000/
  baloot serve --db postgresql://user:secret@localhost/baloot
  baloot serve --bot mine="python3 /srv/bots/mine.py"   # tables may seat bot:mine
  baloot serve --host 0.0.0.0 --db postgresql://baloot@db/baloot --node a --public-url https://a.example

A bot of --bot speaks baloot-bot/1 (docs/bots.md); it runs as one process per seat while its
table is in play, and when it fails the heuristic bot makes that decision (the table shows
the seat as not answering). Clients name it bot:NAME; they can never give a command.
--lobby-bot names the bot the lobby offers first for each seat, --daily-bot the daily's.

The searching bots (medium, hard, expert, ismcts) decide on --bot-workers processes, or on a
Ray cluster with --bots-on, so that they use every core; the table's authority stays in this
server. A decision that does not come back (a worker that dies or hangs, a cluster that goes
away) is made by the heuristic bot instead, and the seat shows it (docs/workers.md). While
the cluster is gone, the bots decide on worker processes here until it is back.
Hints are made on a worker process of their own (in a thread of their own with
--bot-workers 0), one at a time a seat: they never delay a bot's decision.

The analysis page of a finished hand (linked from the table and the history) is computed in
the background, one hand at a time, and kept in the database; --analysis-bot names the bot
whose estimates it shows (none: exact values only, the quickest).

Tables in play survive a restart: every decision is stored before it is acknowledged.
The database is a SQLite file (default: $XDG_STATE_HOME/pybaloot/tables.db) or a
PostgreSQL URL.

Several servers (nodes) may share one PostgreSQL database: start each with a --node name of
its own and the --public-url browsers reach it at (docs/nodes.md). A table is served by one
node; a page or a socket of a table asked of another node is sent there (a 307, close code
4307 with the node's URL). A new table goes to the least loaded node, and the tables of a node
that stopped answering go on at another within seconds. Alone, a server is the node
HOSTNAME:PORT at http://HOST:PORT.

Ctrl-C or SIGTERM stop the server cleanly (every acknowledged decision is stored, the
node's tables left to the others at once); exit status 130 after Ctrl-C, 143 after SIGTERM,
2 when the server cannot start."""


def default_db() -> Path:
    """Where tables are kept by default: ``$XDG_STATE_HOME/pybaloot/tables.db``."""
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "pybaloot" / "tables.db"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``baloot serve``."""
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument(
        "--db", metavar="FILE_OR_URL", help="SQLite file or postgresql:// URL (see below)"
    )
    parser.add_argument(
        "--node",
        metavar="NAME",
        help="this server's name among those sharing the database "
        "(default HOSTNAME:PORT; letters, digits, '.', '_', ':', '-')",
    )
    parser.add_argument(
        "--public-url",
        metavar="URL",
        help="where browsers reach this server, for the pages and sockets other servers send "
        "here (default http://HOST:PORT)",
    )
    parser.add_argument(
        "--idle-days",
        type=float,
        default=7.0,
        help="close tables whose humans stayed away this long (default 7)",
    )
    parser.add_argument(
        "--tables-per-minute",
        type=int,
        default=10,
        help="new tables one address may create a minute (default 10; 0: no limit)",
    )
    parser.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="NAME=COMMAND",
        help="register a bot program as bot:NAME for the tables (repeatable; see below)",
    )
    parser.add_argument(
        "--bot-pause",
        type=float,
        default=0.6,
        help="seconds before each bot decision, so people can follow (default 0.6)",
    )
    parser.add_argument(
        "--leaderboard-matches",
        type=int,
        default=None,
        metavar="N",
        help="the rated matches in a preset a player needs to be on its leaderboard "
        "(default 5; a small club may lower it)",
    )
    parser.add_argument(
        "--lobby-bot",
        metavar="NAME",
        default=DEFAULT_OPPONENT,
        help=f"the bot the lobby offers first for a seat (default {DEFAULT_OPPONENT}; heuristic "
        "costs a server the least)",
    )
    parser.add_argument(
        "--daily-bot", metavar="NAME", default=DEFAULT_OPPONENT, help="the daily's bots"
    )
    parser.add_argument(
        "--analysis-bot",
        metavar="NAME",
        default=None,
        help="the bot whose estimates a hand's analysis shows "
        f"(default {ROLES.server_analysis}; options as in expert:samples=20; "
        "none: exact values only)",
    )
    parser.add_argument(
        "--bot-workers",
        type=int,
        default=None,
        metavar="N",
        help="processes that make the bots' decisions (default: the cores less one, at least "
        "one; 0: in the server's own threads)",
    )
    parser.add_argument(
        "--bots-on",
        metavar="ADDRESS",
        default=None,
        help="make the bots' decisions on a Ray cluster instead: ray://HEAD:10001, auto (the "
        "cluster this machine joined) or local (a new one here); needs pybaloot[ray]",
    )
    parser.add_argument(
        "--keep-alive",
        type=int,
        default=KEEP_ALIVE,
        metavar="SECONDS",
        help=f"close a connection idle this long after a response (default {KEEP_ALIVE})",
    )
    parser.add_argument(
        "--header-timeout",
        type=int,
        default=HEADER_TIMEOUT,
        metavar="SECONDS",
        help="close a connection that takes longer to send a request's headers "
        f"(default {HEADER_TIMEOUT})",
    )


def run(args: argparse.Namespace) -> int:
    """Serve until SIGINT or SIGTERM; the exit status."""
    signals = _Signals()
    # Set whatever handler was there, even SIG_IGN (a shell's background job ignores SIGINT).
    previous = {signum: signal.signal(signum, signals.handle) for signum in _STOPPING}
    status = CANNOT_START
    try:
        with contextlib.suppress(_StoppedStarting):  # then the signal decides the status
            status = _serve(args, signals)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    if signals.first == signal.SIGTERM:
        # Ended by the signal itself, which a service manager takes for a clean stop.
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.raise_signal(signal.SIGTERM)
        return 128 + signal.SIGTERM  # only if SIGTERM is blocked
    return INTERRUPTED if signals.first == signal.SIGINT else status


def _serve(args: argparse.Namespace, signals: _Signals) -> int:
    """Check the options, open the store, listen, then serve until ``signals`` stop it."""
    problem = _bad_option(args)
    if problem is not None:
        return _cannot(problem)
    # The web stack is imported here, not at the top: other commands do not need it.
    import uvicorn

    from baloot.analysis import SolverAndBot
    from baloot.bots.base import registered
    from baloot.bots.deciders import open_deciders
    from baloot.bots.workers import WorkerPool, workers_default
    from baloot.server.app import create_app
    from baloot.server.hall import Hall
    from baloot.server.http_server import CommandServer, header_timed_http
    from baloot.server.players.ratings import LEADERBOARD_MATCHES
    from baloot.server.storage import open_store

    try:
        operators = operator_bots(args.bot)
    except BalootError as error:
        return _cannot(str(error))
    for option, bot in (("lobby", args.lobby_bot), ("daily", args.daily_bot)):
        if bot not in {*available_bots(), *operators}:
            return _cannot(f"--{option}-bot: no bot {bot!r} (a registered name, no options)")
    analysis_bot = ROLES.server_analysis if args.analysis_bot is None else args.analysis_bot
    if analysis_bot == "none":
        analysis_bot = None
    try:
        SolverAndBot(analysis_bot)
    except BalootError as error:
        return _cannot(f"--analysis-bot: {first_line(error)}")
    target = args.db or str(default_db())
    if args.db is None:
        default_db().parent.mkdir(parents=True, exist_ok=True)
    try:
        store = open_store(target)
    except (BalootError, OSError, Exception) as error:  # sqlite3/psycopg errors too
        return _cannot(f"cannot open the database {_redact(target)}: {first_line(error)}")
    try:
        listener = _listen(args.host, args.port)
    except OSError as error:
        store.close()
        if error.errno == errno.EADDRINUSE:
            return _cannot(f"port {args.port} is in use: choose another with --port")
        return _cannot(f"cannot listen on {args.host}:{args.port}: {error.strerror}")
    workers = workers_default() if args.bot_workers is None else args.bot_workers
    try:
        deciders = open_deciders(args.bots_on, workers)
        # Hints have a worker of their own: they never queue ahead of a bot's decision.
        hint_deciders = None if deciders is None else WorkerPool(1)
    except BalootError as error:
        listener.close()
        store.close()
        return _cannot(f"--bots-on: {first_line(error)}")
    hall = Hall(
        store,
        node=args.node or f"{socket.gethostname()}:{args.port}",
        public_url=_public_url(args),
        bot_pause=args.bot_pause,
        idle=args.idle_days * 24 * 3600,
        analysis_bot=analysis_bot,
        deciders=deciders,
        hint_deciders=hint_deciders,
    )
    config = uvicorn.Config(
        create_app(
            hall,
            create_rate=args.tables_per_minute,
            lobby_bot=args.lobby_bot,
            daily_bot=args.daily_bot,
            leaderboard_matches=args.leaderboard_matches or LEADERBOARD_MATCHES,
        ),
        http=header_timed_http(args.header_timeout),
        log_level="info",
        ws_max_size=1024 * 1024,
        ws_ping_interval=20,
        proxy_headers=False,
        timeout_keep_alive=args.keep_alive,
    )
    for name in ("uvicorn.access", "uvicorn.error"):
        logging.getLogger(name).addFilter(_redact_tokens)
    logging.getLogger("uvicorn.error").addFilter(_not_a_cancelled_lifespan)
    if operators:  # what the bot programs write on standard error, and their failures
        _show_log(BOTS_LOG)
    if args.bots_on is not None:  # the cluster going away and coming back, a line each
        _show_log(CLUSTER_LOG)
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    print(f"pybaloot serves tables at http://{shown}:{args.port}/  (Ctrl-C stops)", flush=True)
    if args.host in ("0.0.0.0", "::"):
        print(f"friends on your network open http://YOUR-ADDRESS:{args.port}/", flush=True)
    with registered(operators):
        server = CommandServer(config)
        signals.serving(server)
        server.run(sockets=[listener])
    return 0


def _show_log(name: str) -> None:
    """Print the log ``name`` on standard error from its INFO lines, as uvicorn prints its
    own."""
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(levelname)s:     %(message)s"))
    shown = logging.getLogger(name)
    shown.addHandler(handler)
    shown.setLevel(logging.INFO)
    shown.propagate = False


#: The signals that stop the command.
_STOPPING: Final = (signal.SIGINT, signal.SIGTERM)


class _StoppedStarting(BaseException):
    """SIGINT or SIGTERM arrived before the server served: the start is abandoned.

    A ``BaseException``, like ``KeyboardInterrupt``, so that no ``except Exception`` on the
    way swallows it."""


class _Signals:
    """What SIGINT and SIGTERM do to ``baloot serve``: ``first`` is the signal that stopped
    it (None until one came).

    Before the server serves, the first signal raises :class:`_StoppedStarting` where the
    start is; once it serves, it asks uvicorn to stop cleanly (every connection closed, the
    hall stopped) and a second one makes it stop at once."""

    def __init__(self) -> None:
        self.first: int | None = None
        self._server: uvicorn.Server | None = None

    def serving(self, server: uvicorn.Server) -> None:
        """From now on, a signal stops ``server``."""
        self._server = server

    def handle(self, signum: int, _: FrameType | None) -> None:
        """The handler of both signals."""
        first = self.first is None
        if first:
            self.first = signum
        if self._server is not None:
            self._server.should_exit = True
            if not first:
                self._server.force_exit = True
        elif first:
            raise _StoppedStarting
        # A later signal during an abandoned start does not cut its clean-up short.


def operator_bots(assignments: list[str]) -> dict[str, OptionsFactory]:
    """The bots of ``--bot NAME=COMMAND``, checked (a :class:`BalootError` with one line).

    ``COMMAND`` is a command line, split as a shell splits words, or one path (a ``.py``
    file runs with this Python). Each seat gets its own process, started at its first
    decision; when it fails, the heuristic bot decides for it (and it is logged).
    """
    from baloot.bots.external import find_program
    from baloot.bots.names import (
        COMMAND_PREFIX,
        BotOptions,
        Program,
        Registered,
        parse_bot_name,
    )

    bots: dict[str, OptionsFactory] = {}
    for assignment in assignments:
        name, equals, command = assignment.partition("=")
        name, command = name.strip(), command.strip()
        if not equals or not command:
            raise BalootError(f"--bot takes NAME=COMMAND, not {assignment!r}")
        if parse_bot_name(name) != Registered(name, BotOptions()):
            raise BalootError(f"--bot {name}=…: a bot name is letters, digits, '_', '.', '-'")
        if name in available_bots() or name in bots:
            raise BalootError(f"--bot {name}=…: bot:{name} is taken; choose another name")
        words = command.split()
        text = command if len(words) == 1 and "/" in command else COMMAND_PREFIX + command
        program = parse_bot_name(command if command.startswith(COMMAND_PREFIX) else text)
        assert isinstance(program, Program)
        find_program(program)
        bots[name] = _operator_factory(name, program)
    return bots


def _operator_factory(name: str, program: Program) -> OptionsFactory:
    """How a table seats the operator's bot ``name``: guarded by the fallback bot
    (:attr:`~baloot.bots.levels.Roles.program_fallback`)."""
    from baloot.bots.external import BotFailure, ExternalBot
    from baloot.bots.guarded import GuardedBot

    logger = logging.getLogger(BOTS_LOG)

    def log(line: bytes) -> None:
        logger.info("bot:%s says %s", name, line.decode("utf-8", "replace").rstrip()[:500])

    def report(failure: BotFailure) -> None:
        logger.warning("%s; the %s bot played that decision", failure, ROLES.program_fallback)

    def make(rng: random.Random, options: BotOptions) -> GuardedBot:
        options.check()
        return GuardedBot(
            ExternalBot(program, name=name, log=log), make_bot(ROLES.program_fallback, rng), report
        )

    return make


def _listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
    except OSError:
        listener.close()
        raise
    listener.set_inheritable(True)
    return listener


def _redact(text: str) -> str:
    """A database URL or log line without secrets: tokens and passwords replaced.

    >>> _redact("GET /t/x?lang=ar&%74oken=Tk9&TOKEN=Tk9;token=Tk9 postgresql://u:pw@host/db")
    'GET /t/x?lang=ar&%74oken=…&TOKEN=…;token=… postgresql://u:…@host/db'
    """
    text = _QUERY.sub(lambda query: _PARAMETER.sub(_hide_token, query[0]), text)
    return re.sub(r"(://[^:/@]+:)[^@]+@", r"\1…@", text)


def _hide_token(parameter: re.Match[str]) -> str:
    """A query's parameter, its value replaced by ``…`` if its name is ``token``.

    The name is decoded as the server decodes it (``urllib.parse.parse_qsl``: ``%74oken`` and
    ``to%6Ben`` are ``token``, ``+`` is a space), then compared without case or surrounding
    spaces: the server reads no token from ``TOKEN=`` or ``+token=``, but the value may still
    be one pasted in the wrong place.
    """
    name, equals, value = parameter[0].partition("=")
    if equals and value and unquote_plus(name).strip().casefold() == "token":
        return f"{name}=…"
    return parameter[0]


def _redact_tokens(record: logging.LogRecord) -> bool:
    """A logging filter: no seat token reaches a log."""
    if isinstance(record.args, tuple):
        record.args = tuple(_redact(a) if isinstance(a, str) else a for a in record.args)
    if isinstance(record.msg, str):
        record.msg = _redact(record.msg)
    return True


def _not_a_cancelled_lifespan(record: logging.LogRecord) -> bool:
    """A logging filter: a second Ctrl-C stops the server at once, which cancels the app's
    lifespan, and Starlette reports that cancel as a failed shutdown with its traceback; it is
    what was asked, so it is not logged.

    >>> text = "Traceback (most recent call last):\\n  ...\\nasyncio.exceptions.CancelledError"
    >>> record = logging.LogRecord("uvicorn.error", logging.ERROR, "", 0, text, None, None)
    >>> _not_a_cancelled_lifespan(record)
    False
    """
    message = record.getMessage()
    return not (
        message.startswith("Traceback")
        and message.rstrip().endswith("asyncio.exceptions.CancelledError")
    )


def _bad_option(args: argparse.Namespace) -> str | None:
    """What is wrong with the options that need no import to check, in one line (None:
    nothing). A number must be within its range, which nan never is and inf is not."""
    numbers = (
        ("--port", args.port, 1 <= args.port <= 65535, "1 to 65535"),
        (
            "--idle-days",
            args.idle_days,
            0 < args.idle_days <= MAX_IDLE_DAYS,
            f"above 0, at most {MAX_IDLE_DAYS}",
        ),
        ("--bot-pause", args.bot_pause, 0 <= args.bot_pause <= 10, "0 to 10 seconds"),
        (
            "--tables-per-minute",
            args.tables_per_minute,
            0 <= args.tables_per_minute <= MAX_TABLES_PER_MINUTE,
            f"0 (no limit) to {MAX_TABLES_PER_MINUTE}",
        ),
        (
            "--keep-alive",
            args.keep_alive,
            1 <= args.keep_alive <= MAX_TIMEOUT,
            f"1 to {MAX_TIMEOUT} seconds",
        ),
        (
            "--header-timeout",
            args.header_timeout,
            1 <= args.header_timeout <= MAX_TIMEOUT,
            f"1 to {MAX_TIMEOUT} seconds",
        ),
    )
    least = args.leaderboard_matches
    if least is not None and not 1 <= least <= MAX_LEADERBOARD_MATCHES:
        return f"--leaderboard-matches is 1 to {MAX_LEADERBOARD_MATCHES}, not {least}"
    if args.bot_workers is not None and not 0 <= args.bot_workers <= MAX_BOT_WORKERS:
        return f"--bot-workers is 0 to {MAX_BOT_WORKERS}, not {args.bot_workers}"
    if args.bots_on is not None and not args.bots_on.strip():
        return "--bots-on is a Ray address (ray://HEAD:10001, auto, local), not empty"
    for option, value, within, allowed in numbers:
        if not within:
            return f"{option} is {allowed}, not {value}"
    if not args.host.strip():
        return "--host is an address to listen on (127.0.0.1, 0.0.0.0, ::), not empty"
    if args.db is not None and not args.db.strip():
        return "--db is a SQLite file or a postgresql:// URL, not empty"
    return _bad_node(args)


def _public_url(args: argparse.Namespace) -> str:
    """``--public-url`` without a final ``/``, or ``http://HOST:PORT`` (the host's name for
    a server that listens on every address).

    >>> from argparse import Namespace
    >>> _public_url(Namespace(public_url="https://a.example/", host="0.0.0.0", port=80))
    'https://a.example'
    >>> _public_url(Namespace(public_url=None, host="::1", port=8000))
    'http://[::1]:8000'
    """
    if args.public_url:
        return str(args.public_url).rstrip("/")
    host = socket.gethostname() if args.host in ("0.0.0.0", "::") else args.host
    return f"http://[{host}]:{args.port}" if ":" in host else f"http://{host}:{args.port}"


def _bad_node(args: argparse.Namespace) -> str | None:
    """What is wrong with ``--node`` and ``--public-url``, in one line (None: nothing). A
    public URL is an origin (no path but ``/``, no query), short enough to be a WebSocket
    close reason (:data:`MAX_PUBLIC_URL` bytes), where a client is sent."""
    if args.node is not None and not _NODE.fullmatch(args.node):
        return f"--node is 1 to 64 letters, digits, '.', '_', ':' or '-', not {args.node[:80]!r}"
    if args.public_url is None:
        return None
    url = urlsplit(args.public_url)
    origin_only = url.path in ("", "/") and not (url.query or url.fragment or url.username)
    if url.scheme not in ("http", "https") or not url.hostname or not origin_only:
        shown = args.public_url[:80]
        return f"--public-url is an http:// or https:// origin (https://a.example), not {shown!r}"
    if len(args.public_url.rstrip("/").encode()) > MAX_PUBLIC_URL:
        return f"--public-url is at most {MAX_PUBLIC_URL} bytes"
    return None


def _cannot(message: str) -> int:
    print(f"baloot serve: {message}", file=sys.stderr)
    return CANNOT_START
