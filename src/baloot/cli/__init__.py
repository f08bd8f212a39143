"""The ``baloot`` command line: replay, validate, deal and random records.

Exit status (``record-format.md``): 0 for a record that replays cleanly, 1 for a record with an
illegal action, 2 for a file that is not a record (a one-line message on stderr).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path

from baloot.core.cards import CardSet
from baloot.core.errors import BalootError, RecordError, RulesError
from baloot.core.hand import Hand
from baloot.core.match import Match
from baloot.core.rules import Rules
from baloot.core.seats import Seat
from baloot.records.record import Record, dumps, loads, loads_all
from baloot.records.replay import ReplayError, replay

from . import arena as arena_command
from . import play as play_command
from .i18n import LANGUAGES, strings
from .options import add_rules_arguments, rules_from_arguments
from .sheet import render_replay

OK, ILLEGAL, NOT_A_RECORD = 0, 1, 2

_EPILOG = {
    "play": """examples:
  baloot play                          you sit South against three heuristic bots
  baloot play --seed 7 --lang ar       a reproducible match, in Arabic
  baloot play --seat N --bots W=random,S=heuristic,E=random --save match.baloot
  baloot play --rules federation --rule must_undertrump=true""",
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
  baloot deal --seed 7                 the deck of seed 7, dealt by E
  baloot deal --seed 7 --dealer N --taker S""",
    "random": """examples:
  baloot random --seed 1                      one random match record (TOML) on stdout
  baloot random --seed 1 --count 100 --out recs    100 files recs/random-1-001.baloot …
  baloot random --seed 1 --count 5 --json     five records, one JSON line each
  baloot random --seed 2 --rules federation --rule must_undertrump=true
  baloot random --seed 3 --rules random       random variant flags for every match""",
}


def _read_text(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise RecordError(f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not UTF-8 text") from None


def _cmd_replay(args: argparse.Namespace) -> int:
    try:
        record = loads(_read_text(args.file))
        result = replay(record)
    except RecordError as error:
        print(f"baloot: {error}", file=sys.stderr)
        return NOT_A_RECORD
    except ReplayError as error:
        if args.json:
            print(json.dumps(error.to_json(), ensure_ascii=False))
        else:
            print(str(error))
        return ILLEGAL
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        print(render_replay(result, strings(args.lang)))
    return OK


def _cmd_validate(args: argparse.Namespace) -> int:
    worst = OK
    for path in args.files:
        try:
            records = loads_all(_read_text(path))
        except RecordError as error:
            print(f"{path}: not a record: {error}")
            worst = max(worst, NOT_A_RECORD)
            continue
        for line, record in enumerate(records, 1):
            where = path if len(records) == 1 else f"{path}:{line}"
            worst = max(worst, _validate_one(where, record))
    return worst


def _validate_one(where: str, record: Record) -> int:
    try:
        result = replay(record)
    except RecordError as error:
        print(f"{where}: not a record: {error}")
        return NOT_A_RECORD
    except ReplayError as error:
        print(f"{where}: illegal: {error}")
        return ILLEGAL
    state = "in progress" if not result.hands[-1].is_over else "complete"
    count = len(result.hands)
    print(
        f"{where}: ok ({count} hand{'s' if count != 1 else ''}, {state}, "
        f"NS {result.totals[0]} EW {result.totals[1]})"
    )
    return OK


def _cmd_deal(args: argparse.Namespace) -> int:
    hand = Hand.new(rng=random.Random(args.seed), dealer=args.dealer)
    deck = hand.deck
    print(f"seed {args.seed}, dealer {hand.dealer.name}")
    print("deck: " + " ".join(c.text for c in deck))
    print("first five:")
    for seat in Seat:
        print(f"  {seat.name}: {' '.join(c.pretty for c in hand.hand(seat))}")
    print(f"exposed: {hand.exposed.pretty}")
    if args.taker is None:
        print("still to deal: " + " ".join(c.pretty for c in deck[21:]))
        return OK
    taker = Seat.parse(args.taker)
    hands = _completed(hand, taker)
    print(f"eight cards each when {taker.name} takes the exposed card:")
    for seat in Seat:
        print(f"  {seat.name}: {' '.join(c.pretty for c in hands[seat])}")
    return OK


def _completed(hand: Hand, taker: Seat) -> list[CardSet]:
    """The 8-card hands when ``taker`` takes the exposed card (R7.2)."""
    order = [hand.dealer.after(i) for i in range(1, 5)]
    held = [hand.hand(s).mask for s in Seat]
    held[taker] |= hand.exposed.bit
    position = 21
    for seat in order:
        count = 2 if seat == taker else 3
        for card in hand.deck[position : position + count]:
            held[seat] |= card.bit
        position += count
    return [CardSet(m) for m in held]


def random_match(seed: int, rules: Rules, dealer: Seat = Seat.E) -> Match:
    """A match played out with uniformly random legal actions, reproducible by ``seed``."""
    rng = random.Random(seed)
    match = Match.new(rng=rng, dealer=dealer, rules=rules)
    while not match.is_over:
        match.apply(rng.choice(match.legal_actions()))
    return match


def _cmd_random(args: argparse.Namespace) -> int:
    base = rules_from_arguments(args)
    out = Path(args.out) if args.out else None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    width = max(3, len(str(args.count)))
    for k in range(1, args.count + 1):
        seed = args.seed * 1_000_003 + k if args.count > 1 else args.seed
        rules = base if base is not None else Rules.random(random.Random(seed))
        record: Record = Record.of(
            random_match(seed, rules), comment=f"random legal play, seed {args.seed}, match {k}"
        )
        as_json = args.json or (out is None and args.count > 1)
        text = dumps(record, json=as_json)
        if out is None:
            print(text if as_json else text.rstrip("\n"))
        else:
            suffix = "json" if args.json else "baloot"
            (out / f"random-{args.seed}-{k:0{width}d}.{suffix}").write_text(
                text + ("\n" if as_json else ""), encoding="utf-8"
            )
    if out is not None:
        print(f"wrote {args.count} record{'s' if args.count != 1 else ''} to {out}")
    return OK


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="baloot",
        description="Baloot: replay and check baloot/1 records, deal, generate random games.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, help_text: str) -> argparse.ArgumentParser:
        return sub.add_parser(
            name,
            help=help_text,
            description=help_text,
            epilog=_EPILOG[name],
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )

    p = command("play", "play a match to 152 in the terminal against bots")
    play_command.add_arguments(p)
    p.set_defaults(run=play_command.run)

    p = command("arena", "pit two bots against each other in duplicate games")
    arena_command.add_arguments(p)
    p.set_defaults(run=arena_command.run)

    p = command("replay", "replay a record: the hands as a score sheet, or the JSON summary")
    p.add_argument("file", help="a .baloot (TOML) or JSON record; - reads standard input")
    p.add_argument("--json", action="store_true", help="print the JSON of record-format.md")
    p.add_argument(
        "--lang", choices=LANGUAGES, default="en", help="the language of the sheet (default en)"
    )
    p.set_defaults(run=_cmd_replay)

    p = command("validate", "check records: one line per file")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.set_defaults(run=_cmd_validate)

    p = command("deal", "show the deck of a seed and the hands it gives")
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--dealer", choices=[s.name for s in Seat], default="E")
    p.add_argument("--taker", choices=[s.name for s in Seat], help="who takes the exposed card")
    p.set_defaults(run=_cmd_deal)

    p = command("random", "write records of random legal matches (tests, benchmarks, fuzzing)")
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--count", type=int, default=1, help="how many matches (default 1)")
    p.add_argument("--out", metavar="DIR", help="write one file per match into DIR")
    add_rules_arguments(p, random_per="match")
    p.add_argument("--json", action="store_true", help="write JSON instead of TOML")
    p.set_defaults(run=_cmd_random)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    args = _parser().parse_args(argv)
    if getattr(args, "count", 1) < 1:
        print("baloot: --count must be at least 1", file=sys.stderr)
        return NOT_A_RECORD
    try:
        status: int = args.run(args)
    except RulesError as error:
        print(f"baloot: {error}", file=sys.stderr)
        return NOT_A_RECORD
    except BalootError as error:
        print(f"baloot: {error}", file=sys.stderr)
        return NOT_A_RECORD
    except BrokenPipeError:
        return OK
    return status


if __name__ == "__main__":
    sys.exit(main())
