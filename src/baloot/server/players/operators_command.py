"""``baloot operators add|remove|list``: who may read the collusion screen's page
(``docs/integrity.md``), set by whoever runs the server, with access to its database.

The ``baloot`` entry point lists this command beside ``baloot screen``; it exits 0 once done
(adding an operator already, removing an account that is none: nothing to do, said so), 1
when no account has the name given (or it is no name an account can have), 2 when the
database cannot be opened.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
import time
from typing import Final

from baloot.server.players.names import BadName, check_name
from baloot.server.storage import StorageError, Store, open_store

#: The status when no account has the name given.
NO_ACCOUNT: Final = 1
#: The status when the database cannot be opened.
CANNOT_OPEN: Final = 2

HELP: Final = "name the operators: the accounts that may read the collusion screen's page"
EPILOG: Final = """\
examples:
  baloot operators add Saad --db baloot.db      # Saad may read /operator/screen
  baloot operators list --db baloot.db
  baloot operators remove Saad --db postgresql://baloot@db/baloot
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The actions of ``baloot operators``, each with ``--db``."""
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    said = {
        "add": "make the account NAME an operator",
        "remove": "make the account NAME an operator no more",
        "list": "list the operators",
    }
    for action, line in said.items():
        sub = actions.add_parser(action, help=line, description=line[0].upper() + line[1:] + ".")
        if action != "list":
            sub.add_argument("name", metavar="NAME", help="the account's name, as on its profile")
        sub.add_argument(
            "--db", required=True, metavar="FILE_OR_URL", help="SQLite file or postgresql:// URL"
        )


def run(args: argparse.Namespace) -> int:
    """Do ``args.action`` on the store at ``--db``; the exit status."""
    target: str = args.db
    if not target.startswith(("postgresql://", "postgres://")) and not os.path.isfile(target):
        return _say(f"no SQLite database at {target}", CANNOT_OPEN)
    try:
        store = open_store(target)
    except StorageError as error:
        return _say(str(error), CANNOT_OPEN)
    try:
        if args.action == "list":
            return _list(store)
        return _change(store, args.action, args.name)
    except StorageError as error:
        return _say(str(error), CANNOT_OPEN)
    finally:
        store.close()


def _list(store: Store) -> int:
    """Print each operator and the day it became one, or that there is none."""
    found = store.operators()
    for player, added in found:
        day = dt.datetime.fromtimestamp(added, dt.UTC).date().isoformat()
        print(f"{player.name}  (since {day})")
    if not found:
        print("no operators: baloot operators add NAME makes one")
    return 0


def _change(store: Store, action: str, name: str) -> int:
    """Add or remove the account named ``name``; the exit status."""
    try:
        player = store.player_named(check_name(name))
    except BadName as bad:
        return _say(f"{name!r} is no account's name: {bad}", NO_ACCOUNT)
    if player is None:
        return _say(f"no account is named {name!r}", NO_ACCOUNT)
    if action == "add":
        done = store.add_operator(player.id, time.time())
        print(f"{player.name} is an operator{' now' if done else ' already'}")
    else:
        done = store.remove_operator(player.id)
        print(f"{player.name} {'is an operator no more' if done else 'was not an operator'}")
    return 0


def _say(message: str, status: int) -> int:
    print(f"baloot operators: {message}", file=sys.stderr)
    return status
