"""``baloot ratings recompute``: every rating rated again from the stored matches, in the
order they ended, and compared with the ratings kept (``docs/ratings.md``).

The ``baloot`` entry point lists this command beside ``baloot serve``; it exits 0 when the
recomputed ratings are the ones kept (or, with ``--write``, once they replace them), 1 when
they differ, 2 when the database cannot be opened.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Final

from baloot.server.storage import StorageError, open_store

#: The status when the recomputed ratings differ from those kept (and were not written).
DIFFERENT: Final = 1
#: The status when the database cannot be opened.
CANNOT_OPEN: Final = 2

HELP: Final = "check the players' ratings: recompute them from the stored matches"
EPILOG: Final = """\
examples:
  baloot ratings recompute --db baloot.db            # exit 0 when they equal those kept
  baloot ratings recompute --db baloot.db --write    # keep the recomputed ratings instead
  baloot ratings recompute --db postgresql://baloot@db/baloot
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``baloot ratings``."""
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    recompute = actions.add_parser(
        "recompute",
        help="rate every stored match again, in order, and compare with the ratings kept",
        description="Rate every stored match again, in the order they ended, and say "
        "whether the result is the ratings kept (exit 0) or not (exit 1).",
    )
    recompute.add_argument(
        "--db", required=True, metavar="FILE_OR_URL", help="SQLite file or postgresql:// URL"
    )
    recompute.add_argument(
        "--write", action="store_true", help="keep the recomputed ratings and their history"
    )


def run(args: argparse.Namespace) -> int:
    """Recompute the ratings of the store at ``--db``; the exit status."""
    target: str = args.db
    if not target.startswith(("postgresql://", "postgres://")) and not os.path.isfile(target):
        return _cannot(f"no SQLite database at {target}")
    try:
        store = open_store(target)
    except StorageError as error:
        return _cannot(str(error))
    try:
        changes, same = store.recompute()
        players = len({change.player_id for change in changes})
        matches = len({change.table_id for change in changes})
        said = f"{matches} rated matches, {players} players: the recomputed ratings"
        if same:
            print(f"{said} equal those kept")
            return 0
        if not args.write:
            print(f"{said} differ from those kept (--write keeps the recomputed ones)")
            return DIFFERENT
        store.replace_ratings(changes)
        print(f"{said} differed from those kept, and replace them now")
        return 0
    except StorageError as error:
        return _cannot(str(error))
    finally:
        store.close()


def _cannot(message: str) -> int:
    print(f"baloot ratings: {message}", file=sys.stderr)
    return CANNOT_OPEN
