"""The ``baloot`` command line: play, arena, replay, analyze, validate, deal and random records.

Exit status (``record-format.md``): 0 for a record that replays cleanly, 1 for a record with an
illegal action, 2 for a file that is not a record or a usage error (a one-line message on
stderr). ``arena`` ends with 130 on Ctrl-C and 143 on SIGTERM; ``play`` has its own (see
:mod:`baloot.cli.play`).

Everything printed from a file goes through :func:`~baloot.cli.files.printable` (text) or
:func:`json_text` (JSON), so a record cannot drive the terminal or break the output; a closed
pipe ends the output quietly (:class:`~baloot.cli.files.Output`).
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import random
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from baloot.core.errors import BalootError, RecordError
from baloot.core.hand import Hand
from baloot.core.match import Match
from baloot.core.rules import Rules
from baloot.core.seats import Seat
from baloot.records.atomic import FolderError
from baloot.records.record import Record, loads, loads_all, shown
from baloot.records.replay import ReplayError, replay
from baloot.records.writer import dumps
from baloot.table import first_dealer
from baloot.words.strings import LANGUAGES, strings

from . import analyze as analyze_command
from . import arena as arena_command
from . import play as play_command
from .files import (
    RECORD_LIMIT,
    Output,
    check_writable_dir,
    printable,
    read_record_text,
    shown_path,
    silence_stdout,
    write_atomic,
)
from .options import add_rules_arguments, rules_from_arguments, seed
from .replay_text import render_replay

OK, ILLEGAL, NOT_A_RECORD = 0, 1, 2


class Command(Protocol):
    """A command that a layer beside the command line adds to it (``baloot serve``): its
    help, its options and what runs it. A module with these names is one."""

    HELP: str
    EPILOG: str

    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, args: argparse.Namespace) -> int: ...


REASON_LENGTH = 160
"""The most characters of an error's reason that the text output shows (then an ellipsis)."""

_EPILOG = {
    "play": """examples:
  baloot play                          you sit South against three bots of the medium level
  baloot play --seed 7 --lang ar       a reproducible match, in Arabic
  baloot play --seat N --bots W=random,S=heuristic,E=random --save match.baloot
  baloot play --rules federation --rule must_undertrump=true
  baloot play --auto --save friday.baloot   a forced card plays itself; keep the match
  baloot play --resume friday.baloot        go on with a saved or interrupted match

while playing, type ? for the commands: l (last tricks), s (score sheet), u (undo),
h (hint), c (claim the rest, Sawa)""",
    "arena": """examples:
  baloot arena heuristic random --matches 200 --jobs 2
  baloot arena heuristic random --hands 1000 --seed 3 --json
  baloot arena heuristic heuristic --matches 20 --out records/""",
    "replay": """examples:
  baloot replay game.baloot            the hands as a readable score sheet
  baloot replay game.baloot --lang ar  the score sheet in Arabic
  baloot replay game.baloot --json     the summary of record-format.md
  baloot random --seed 1 | baloot replay -""",
    "validate": """examples:
  baloot validate game.baloot
  baloot validate records/*.baloot     one line per file; exit 1 or 2 if any fails
  baloot random --seed 1 --count 50 --json > bulk.jsonl
  baloot validate bulk.jsonl            a bulk file: one JSON record a line""",
    "deal": """examples:
  baloot deal --seed 7                 the first deal of baloot play --seed 7
  baloot deal --seed 7 --dealer N --taker S""",
    "random": """examples:
  baloot random --seed 1                      one random match record (TOML) on stdout
  baloot random --seed 1 --count 100 --out recs    100 files recs/random-1-001.baloot …
  baloot random --seed 1 --count 5 --json     five records, one JSON line each
  baloot random --seed 2 --rules federation --rule must_undertrump=true
  baloot random --seed 3 --rules random       random variant flags for every match""",
}


_LIMIT_NOTE = (
    f"A record file (or standard input) may hold at most {RECORD_LIMIT // (1024 * 1024)} MiB."
)
_JSON_ESCAPED = re.compile("[\x7f-\x9f\ud800-\udfff]")


def json_text(data: object) -> str:
    """``data`` as one line of JSON (UTF-8), with DEL, C1 controls and lone surrogates escaped.

    ``json.dumps`` escapes the C0 controls already; these others would reach the terminal raw,
    or (a lone surrogate, from a JSON record) could not be written at all.

    >>> json_text({"text": "N \\ud800\\x9b é"})
    '{"text": "N \\\\ud800\\\\u009b é"}'
    """
    text = json.dumps(data, ensure_ascii=False)
    return _JSON_ESCAPED.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _error_line(error: BaseException) -> str:
    """An error's message, as one printable line of reasonable length."""
    return printable(_clip(str(error), 2 * REASON_LENGTH))


def _illegal_line(error: ReplayError) -> str:
    """``hand 1: action 13 "S play Kh": S does not hold Kh``, printable and of bounded length."""
    reason = _clip(error.reason, REASON_LENGTH)
    return printable(f"hand {error.hand}: action {error.position} {shown(error.text)}: {reason}")


def _complain(message: str) -> None:
    """One line on standard error, prefixed ``baloot:``."""
    print(f"baloot: {printable(message)}", file=sys.stderr)


def _cmd_replay(args: argparse.Namespace) -> int:
    out = Output()
    try:
        record = loads(read_record_text(args.file))
        result = replay(record)
    except RecordError as error:
        _complain(_error_line(error))
        return NOT_A_RECORD
    except ReplayError as error:
        out.line(json_text(error.to_json()) if args.json else _illegal_line(error))
        return ILLEGAL
    if args.json:
        out.line(json_text(result.to_json()))
    else:
        text = render_replay(result, strings(args.lang))
        out.line("\n".join(printable(line) for line in text.split("\n")))
    return OK


def _cmd_validate(args: argparse.Namespace) -> int:
    out = Output()  # a closed pipe does not stop the checks: the status tells the worst
    worst = OK
    for path in args.files:
        shown_name = shown_path(path)
        try:
            records = loads_all(read_record_text(path))
        except RecordError as error:
            out.line(f"{shown_name}: not a record: {_error_line(error)}")
            worst = max(worst, NOT_A_RECORD)
            continue
        for line, record in enumerate(records, 1):
            where = shown_name if len(records) == 1 else f"{shown_name}:{line}"
            worst = max(worst, _validate_one(out, where, record))
    return worst


def _validate_one(out: Output, where: str, record: Record) -> int:
    try:
        result = replay(record)
    except RecordError as error:
        out.line(f"{where}: not a record: {_error_line(error)}")
        return NOT_A_RECORD
    except ReplayError as error:
        out.line(f"{where}: illegal: {_illegal_line(error)}")
        return ILLEGAL
    state = "in progress" if not result.hands[-1].is_over else "complete"
    count = len(result.hands)
    out.line(
        f"{where}: ok ({count} hand{'s' if count != 1 else ''}, {state}, "
        f"NS {result.totals[0]} EW {result.totals[1]})"
    )
    return OK


def _cmd_deal(args: argparse.Namespace) -> int:
    """The first deal of ``baloot play --seed N``: same shuffle, same first dealer."""
    dealer = Seat[args.dealer] if args.dealer else first_dealer(args.seed)
    hand = Hand.new(rng=random.Random(args.seed), dealer=dealer)
    deck = hand.deck
    lines = [
        f"seed {args.seed}, dealer {hand.dealer.name}",
        "deck: " + " ".join(c.text for c in deck),
        "first five:",
        *(f"  {seat.name}: {' '.join(c.pretty for c in hand.hand(seat))}" for seat in Seat),
        f"exposed: {hand.exposed.pretty}",
    ]
    if args.taker is None:
        lines.append("still to deal: " + " ".join(c.pretty for c in deck[21:]))
    else:
        taker = Seat.parse(args.taker)
        hands = hand.completed_deal(taker)
        lines.append(f"eight cards each when {taker.name} takes the exposed card:")
        lines.extend(f"  {seat.name}: {' '.join(c.pretty for c in hands[seat])}" for seat in Seat)
    Output().line("\n".join(lines))
    return OK


def random_match(seed: int, rules: Rules, dealer: Seat = Seat.E) -> Match:
    """A match played out with uniformly random legal actions, reproducible by ``seed``."""
    rng = random.Random(seed)
    match = Match.new(rng=rng, dealer=dealer, rules=rules)
    while not match.is_over:
        match.apply(rng.choice(match.legal_actions()))
    return match


def _cmd_random(args: argparse.Namespace) -> int:
    base = rules_from_arguments(args)
    out_dir = Path(args.out) if args.out else None
    if out_dir is not None:
        check_writable_dir(out_dir)  # before any match is played
    out = Output()
    width = max(3, len(str(args.count)))
    for k in range(1, args.count + 1):
        seed = args.seed * 1_000_003 + k if args.count > 1 else args.seed
        rules = base if base is not None else Rules.random(random.Random(seed))
        record: Record = Record.of(
            random_match(seed, rules), comment=f"random legal play, seed {args.seed}, match {k}"
        )
        as_json = args.json or (out_dir is None and args.count > 1)
        text = dumps(record, json=as_json)
        if out_dir is None:
            out.line(text if as_json else text.rstrip("\n"))
            if out.closed:  # nobody reads any more: stop playing
                return OK
        else:
            suffix = "json" if args.json else "baloot"
            path = out_dir / f"random-{args.seed}-{k:0{width}d}.{suffix}"
            try:
                write_atomic(path, text + ("\n" if as_json else ""))
            except OSError as error:
                raise FolderError(
                    f"cannot write {shown_path(str(path))}: {error.strerror or error}"
                ) from None
    if out_dir is not None:
        count = args.count
        out.line(f"wrote {count} record{'s' if count != 1 else ''} to {shown_path(args.out)}")
    return OK


def version() -> str:
    """The installed version of pybaloot."""
    try:
        return importlib.metadata.version("pybaloot")
    except importlib.metadata.PackageNotFoundError:
        from baloot import __version__

        return __version__


class _VersionAction(argparse.Action):
    """``--version``: print ``baloot VERSION`` and exit (looked up only when asked)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(
            option_strings, dest, nargs=0, default=argparse.SUPPRESS, help="print the version"
        )

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        Output().line(f"baloot {version()}")
        parser.exit()


def _parser(extra: Mapping[str, Command] | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="baloot",
        description="Baloot: replay and check baloot/1 records, deal, generate random games.",
    )
    parser.add_argument("--version", action=_VersionAction)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, help_text: str) -> argparse.ArgumentParser:
        return sub.add_parser(
            name,
            help=help_text,
            description=help_text,
            epilog=_EPILOG[name],
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )

    for name, extra_command in (extra or {}).items():
        p = sub.add_parser(
            name,
            help=extra_command.HELP,
            description=extra_command.HELP,
            epilog=extra_command.EPILOG,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        extra_command.add_arguments(p)
        p.set_defaults(run=extra_command.run)

    p = command("play", "play a match to 152 in the terminal against bots")
    play_command.add_arguments(p)
    p.set_defaults(run=play_command.run)

    p = command("arena", "pit two bots against each other in duplicate games")
    arena_command.add_arguments(p)
    p.set_defaults(run=arena_command.run)

    p = command("replay", "replay a record: the hands as a score sheet, or the JSON summary")
    p.epilog = f"{_LIMIT_NOTE}\n\n{p.epilog}"
    p.add_argument("file", help="a .baloot (TOML) or JSON record; - reads standard input")
    p.add_argument("--json", action="store_true", help="print the JSON of record-format.md")
    p.add_argument(
        "--lang", choices=LANGUAGES, default="en", help="the language of the sheet (default en)"
    )
    p.set_defaults(run=_cmd_replay)

    p = sub.add_parser(
        "analyze",
        help=analyze_command.HELP,
        description=analyze_command.HELP,
        epilog=f"{_LIMIT_NOTE}\n\n{analyze_command.EPILOG}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    analyze_command.add_arguments(p)
    p.set_defaults(run=analyze_command.run)

    p = command("validate", "check records: one line per file")
    p.epilog = f"{_LIMIT_NOTE}\n\n{p.epilog}"
    p.add_argument("files", nargs="+", metavar="FILE")
    p.set_defaults(run=_cmd_validate)

    p = command("deal", "show the deck of a seed and the hands it gives")
    p.add_argument("--seed", type=seed, required=True)
    p.add_argument(
        "--dealer",
        choices=[s.name for s in Seat],
        help="the dealer (default: the first dealer of baloot play --seed N)",
    )
    p.add_argument("--taker", choices=[s.name for s in Seat], help="who takes the exposed card")
    p.set_defaults(run=_cmd_deal)

    p = command("random", "write records of random legal matches (tests, benchmarks, fuzzing)")
    p.add_argument("--seed", type=seed, required=True)
    p.add_argument("--count", type=int, default=1, help="how many matches (default 1)")
    p.add_argument("--out", metavar="DIR", help="write one file per match into DIR")
    add_rules_arguments(p, random_per="match")
    p.add_argument("--json", action="store_true", help="write JSON instead of TOML")
    p.set_defaults(run=_cmd_random)
    return parser


def main(argv: Sequence[str] | None = None, extra: Mapping[str, Command] | None = None) -> int:
    """Run the command line, with the ``extra`` commands of other layers; the exit status."""
    try:
        return _run(argv, extra or {})
    finally:
        _flush_stdout()


def _run(argv: Sequence[str] | None, extra: Mapping[str, Command]) -> int:
    args = _parser(extra).parse_args(argv)
    if getattr(args, "count", 1) < 1:
        _complain("--count must be at least 1")
        return NOT_A_RECORD
    try:
        status: int = args.run(args)
    except BalootError as error:  # RulesError, RecordError, FolderError …
        _complain(_error_line(error))
        return NOT_A_RECORD
    except BrokenPipeError:  # output that is not written through Output (rich, argparse)
        silence_stdout()
        return ILLEGAL
    return status


def _flush_stdout() -> None:
    """Flush standard output now, so that a closed pipe is not a second error at exit."""
    if sys.stdout is None:
        return
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()
    except (OSError, ValueError):  # closed, or not a real file: nothing more can be done
        return


if __name__ == "__main__":
    sys.exit(main())
