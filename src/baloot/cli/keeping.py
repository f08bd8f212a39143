"""When the terminal game keeps its match, and what it says about it.

A finished match is saved to ``--save``, or, when a person is at the keyboard, where they
say (a file that exists is replaced only when they confirm). A match stopped early (end of
input, Ctrl-C, a signal, a closed output) is kept too: to ``--save``, else to a new autosave
file, so that ``--resume`` can continue it, said in one line with the command to type: the
one the person started the game with (``./scripts/play`` says so, see :data:`COMMAND_VARIABLE`).
:mod:`baloot.cli.signals` turns SIGTERM and SIGHUP into an exception the game catches, like
Ctrl-C. Where and how the files are written is :mod:`baloot.cli.saving`.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Final

from baloot.records.writer import dumps
from baloot.table import Table
from baloot.words.strings import Strings

from .saving import SaveError, autosave_path, save_path, write_record
from .terminal import EndOfInput, Terminal

#: Answers to the replace prompt that mean yes.
YES = ("y", "yes", "نعم")
#: The environment variable that names the command the game was started with, when it was
#: not ``baloot play`` (``scripts/play`` sets it to itself, as the person typed it).
COMMAND_VARIABLE: Final = "BALOOT_PLAY_COMMAND"
#: The command that starts the game, unless :data:`COMMAND_VARIABLE` names another.
PLAY_COMMAND: Final = ("baloot", "play")


def resume_command(command: tuple[str, ...], path: Path) -> str:
    """What to type to go on with the match kept in ``path``, quoted as a shell needs.

    >>> resume_command(("./scripts/play",), Path("/tmp/my match.baloot"))
    "./scripts/play --resume '/tmp/my match.baloot'"
    """
    return shlex.join([*command, "--resume", str(path)])


class Keeper:
    """The record of the match on ``table``, written when the game ends or stops.

    ``save`` is the file of ``--save`` (None without it); ``seed`` names the match in the
    record's comment and in an autosave file's name; ``command`` starts the game, as the line
    that says how to go on with an unfinished match gives it.
    """

    def __init__(
        self,
        table: Table,
        terminal: Terminal,
        s: Strings,
        seed: int,
        save: Path | None,
        command: tuple[str, ...] = PLAY_COMMAND,
    ) -> None:
        self.table = table
        self.terminal = terminal
        self.s = s
        self.seed = seed
        self.save = save
        self.command = command
        #: The match is on disk (no autosave is needed when the game stops).
        self.saved = False
        #: Saving the finished match to ``--save`` failed (the game's exit status says so).
        self.failed = False

    def record_text(self) -> str:
        """The match so far as a baloot/1 record."""
        return dumps(self.table.record(comment=f"baloot play, seed {self.seed}"))

    def write(self, path: Path, *, unfinished: bool = False) -> bool:
        """Write the record to ``path`` and say where, in one line (with how to go on, for an
        ``unfinished`` match); say why not (False) if it fails."""
        say = self.terminal.say
        try:
            write_record(path, self.record_text())
        except OSError as error:
            reason = error.strerror or str(error)
            say(self.s("save_failed", path=str(path), error=reason), style="red")
            return False
        self.saved = True
        if unfinished:
            resume = resume_command(self.command, path)
            say(self.s("saved_unfinished", path=str(path), resume=resume), style="green")
        else:
            say(self.s("saved", path=str(path)), style="green")
        return True

    def save_finished(self, interactive: bool) -> None:
        """The match is over: save it to ``--save``, else offer to (with a person there)."""
        if self.save is not None:
            self.failed = not self.write(self.save)
        elif interactive:
            self.ask_save()

    def ask_save(self) -> None:
        """Offer to save the finished match; never replace a file without asking."""
        s = self.s
        terminal = self.terminal
        while True:
            try:
                answer = terminal.ask_line(s("save_prompt")).strip()
            except EndOfInput:
                terminal.say("")
                return
            if not answer:
                terminal.say(s("not_saved"), style="dim")
                return
            try:
                path = save_path(answer)
            except SaveError as error:
                terminal.error(str(error))
                continue
            if path.exists():
                confirm = terminal.ask_line(s("replace_prompt", path=str(path))).strip()
                if confirm.casefold() not in YES:
                    continue
            if self.write(path):
                return

    def save_unfinished(self) -> None:
        """Keep an interrupted match: to ``--save``, else to a new autosave file."""
        if self.saved or not any(h.actions for h in self.table.match.hands):
            return
        if self.save is not None:
            self.write(self.save, unfinished=True)
            return
        try:
            path = autosave_path(self.seed)
        except OSError as error:
            reason = self.s("save_failed", path="~/.local/state", error=error)
            self.terminal.say(reason, style="red")
            return
        self.write(path, unfinished=True)
