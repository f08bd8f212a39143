"""``baloot random``: records of matches played out with random legal actions.

For tests, benchmarks and fuzzing: each match is reproducible by its seed, written as TOML or
JSON to standard output (one JSON line each when there are several) or one file per match.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from baloot.core.match import Match
from baloot.core.rules import Rules
from baloot.core.seats import Seat
from baloot.records.atomic import FolderError
from baloot.records.record import Record
from baloot.records.writer import dumps

from .files import Output, check_writable_dir, shown_path, write_atomic
from .messages import NOT_A_RECORD, OK, complain
from .options import add_rules_arguments, rules_from_arguments, seed

HELP = "write records of random legal matches (tests, benchmarks, fuzzing)"
EPILOG = """examples:
  baloot random --seed 1                      one random match record (TOML) on stdout
  baloot random --seed 1 --count 100 --out recs    100 files recs/random-1-001.baloot …
  baloot random --seed 1 --count 5 --json     five records, one JSON line each
  baloot random --seed 2 --rules federation --rule must_undertrump=true
  baloot random --seed 3 --rules random       random variant flags for every match"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``baloot random``."""
    parser.add_argument("--seed", type=seed, required=True)
    parser.add_argument("--count", type=int, default=1, help="how many matches (default 1)")
    parser.add_argument("--out", metavar="DIR", help="write one file per match into DIR")
    add_rules_arguments(parser, random_per="match")
    parser.add_argument("--json", action="store_true", help="write JSON instead of TOML")


def random_match(seed: int, rules: Rules, dealer: Seat = Seat.E) -> Match:
    """A match played out with uniformly random legal actions, reproducible by ``seed``."""
    rng = random.Random(seed)
    match = Match.new(rng=rng, dealer=dealer, rules=rules)
    while not match.is_over:
        match.apply(rng.choice(match.legal_actions()))
    return match


def run(args: argparse.Namespace) -> int:
    """Play the matches and write their records; the exit status."""
    if args.count < 1:
        complain("--count must be at least 1")
        return NOT_A_RECORD
    base = rules_from_arguments(args)
    out_dir = Path(args.out) if args.out else None
    if out_dir is not None:
        check_writable_dir(out_dir)  # before any match is played
    out = Output()
    width = max(3, len(str(args.count)))
    for k in range(1, args.count + 1):
        match_seed = args.seed * 1_000_003 + k if args.count > 1 else args.seed
        rules = base if base is not None else Rules.random(random.Random(match_seed))
        record: Record = Record.of(
            random_match(match_seed, rules),
            comment=f"random legal play, seed {args.seed}, match {k}",
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
