"""The ``baloot`` command line: its entry point, which hands each command to its module.

Every command is a module with its ``HELP``, its ``EPILOG``, ``add_arguments`` and ``run`` (a
:class:`Command`): :mod:`~baloot.cli.play`, :mod:`~baloot.cli.arena`,
:mod:`~baloot.cli.replay`, :mod:`~baloot.cli.analyze`, :mod:`~baloot.cli.validate`,
:mod:`~baloot.cli.verify`, :mod:`~baloot.cli.deal`, :mod:`~baloot.cli.random_matches`
(``baloot random``) and :mod:`~baloot.cli.selfplay`.

Exit status (``docs/records.md``, :mod:`baloot.cli.messages`): 0 for a record that replays
cleanly, 1 for a record with an illegal action, 2 for a file that is not a record or a usage
error (a one-line message on stderr). ``arena`` and ``selfplay`` end with 130 on Ctrl-C and
143 on SIGTERM; ``play`` has its own (see :mod:`baloot.cli.play`). A closed pipe ends the
output quietly (:class:`~baloot.cli.files.Output`).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import sys
from collections.abc import Mapping, Sequence
from typing import Any, Final, Protocol, cast

from baloot.core.errors import BalootError

from .files import Output, silence_stdout
from .messages import ILLEGAL, NOT_A_RECORD, complain, error_line
from .signals import INTERRUPTED


class Command(Protocol):
    """A command of the command line: its help, its options and what runs it. A module with
    these names is one; a layer beside the command line adds its own (``baloot serve``)."""

    HELP: str
    EPILOG: str

    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, args: argparse.Namespace) -> int: ...


COMMANDS: Final[Mapping[str, str]] = {
    "play": "baloot.cli.play",
    "arena": "baloot.cli.arena",
    "replay": "baloot.cli.replay",
    "analyze": "baloot.cli.analyze",
    "validate": "baloot.cli.validate",
    "verify": "baloot.cli.verify",
    "deal": "baloot.cli.deal",
    "random": "baloot.cli.random_matches",
    "selfplay": "baloot.cli.selfplay",
}
"""The modules of the commands by name, in the order the help lists them (after those of
other layers). A command's module is imported when it runs, the others' only when the help
lists them all: ``baloot replay`` does not wait for the bots, the analysis or the server."""


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


def _parser(
    extra: Mapping[str, str] | None = None, argv: Sequence[str] | None = None
) -> argparse.ArgumentParser:
    """The parser of ``argv``: the command it names is loaded, the others too only when it
    names none (the help, the version, a mistake)."""
    commands = {**(extra or {}), **COMMANDS}
    words = sys.argv[1:] if argv is None else argv
    chosen = words[0] if words and words[0] in commands else None
    parser = argparse.ArgumentParser(
        prog="baloot",
        description="Baloot: replay and check baloot/1 records, deal, generate random games.",
    )
    parser.add_argument("--version", action=_VersionAction)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, where in commands.items():
        if chosen is not None and name != chosen:
            sub.add_parser(name)  # never shown: the command line names another
            continue
        command = cast(Command, importlib.import_module(where))
        p = sub.add_parser(
            name,
            help=command.HELP,
            description=command.HELP,
            epilog=command.EPILOG,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        command.add_arguments(p)
        p.set_defaults(run=command.run)
    return parser


def main(argv: Sequence[str] | None = None, extra: Mapping[str, str] | None = None) -> int:
    """Run the command line, with the ``extra`` commands of other layers (their modules by
    name); the exit status."""
    try:
        return _run(argv, extra or {})
    finally:
        _flush_stdout()


def _run(argv: Sequence[str] | None, extra: Mapping[str, str]) -> int:
    try:
        parser = _parser(extra, argv)
    except KeyboardInterrupt:  # while the command loads: as a Ctrl-C later ends it
        return INTERRUPTED
    args = parser.parse_args(argv)
    try:
        status: int = args.run(args)
    except BalootError as error:  # RulesError, RecordError, FolderError …
        complain(error_line(error))
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
