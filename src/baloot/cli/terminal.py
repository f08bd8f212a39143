"""The terminal game's lines out and answers in, on one rich console.

Output is printed a line at a time and never re-wrapped, so that a script reading it sees
whole lines. Answers are read as bytes, at most :data:`MAX_ANSWER` of them, so that one
endless line cannot fill the memory; an answer that is too long or not UTF-8 is refused in
one line and asked again, and piped answers are echoed after their prompt so that a
transcript reads like a session. A closed output (``| head``) is handed back to the game,
which then reports on standard error and keeps the match.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

from rich.console import Console, RenderableType
from rich.text import Text

from baloot.words.strings import Strings

#: The widest the table and the sheets are drawn, in columns.
MAX_WIDTH = 100
#: The longest answer read, in bytes: a card, a number or a file name.
MAX_ANSWER = 1024


class EndOfInput(Exception):
    """Standard input ended (Ctrl-D, or the end of a piped script)."""


class GameConsole(Console):
    """A rich console that hands a closed output back to the game (which then keeps the
    match) instead of exiting at once."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        raise BrokenPipeError


def read_stdin() -> bytes:
    """One line of standard input, cut after :data:`MAX_ANSWER` bytes and one more (which
    tells a line that is too long)."""
    return sys.stdin.buffer.readline(MAX_ANSWER + 1)


class Terminal:
    """The console the game prints to, and the answers it reads, in the player's language.

    ``read`` gives one line (bytes, or text from a test); ``echo`` prints each answer after
    its prompt (for input that the terminal does not show itself).
    """

    def __init__(
        self,
        console: Console,
        s: Strings,
        read: Callable[[], bytes | str] = read_stdin,
        echo: bool = False,
    ) -> None:
        self.console = console
        self.s = s
        self.read_line = read
        self.echo = echo

    # ------------------------------------------------------------------ output

    def say(self, text: str | Text, style: str = "") -> None:
        """One line of output, never re-wrapped."""
        if isinstance(text, str):
            text = Text(text, style=style)
        self.console.print(text, soft_wrap=True)

    def error(self, message: str) -> None:
        """The one-line reason of a wrong entry."""
        self.say(message, style="bold red")

    @property
    def width(self) -> int:
        """The width of the table and the sheets: the terminal's, up to 100 columns."""
        return min(self.console.width, MAX_WIDTH)

    def show(self, screen: RenderableType) -> None:
        """A table or a sheet, at most :data:`MAX_WIDTH` columns wide."""
        self.console.print(screen, width=self.width)

    def print(self, renderable: RenderableType) -> None:
        """Anything else rich can draw, at the console's own width."""
        self.console.print(renderable)

    def clear(self) -> None:
        """Clear the screen (in a terminal)."""
        self.console.clear()

    def to_stderr(self) -> None:
        """Standard output was closed: say what is left to say on standard error, plainly."""
        self.console = Console(stderr=True, no_color=True, highlight=False, markup=False)

    # ------------------------------------------------------------------ input

    def ask_line(self, prompt: str) -> str:
        """Show ``prompt`` and read one line; raise :class:`EndOfInput` at the end of input.

        An answer that is not UTF-8 or is too long is refused in one line and read again.
        """
        while True:
            self.console.print(Text(prompt, style="bold"), end="")
            self.console.file.flush()
            try:
                raw = self.read_line()
            except EOFError:
                raise EndOfInput from None
            if isinstance(raw, str):
                answer = raw
            else:
                if not raw:
                    raise EndOfInput
                if len(raw) > MAX_ANSWER:
                    self._skip_rest_of_line(raw)
                    self._refuse(self.s("too_long"))
                    continue
                try:
                    answer = raw.decode("utf-8")
                except UnicodeDecodeError:
                    self._refuse(self.s("not_utf8"))
                    continue
            answer = answer.rstrip("\r\n")
            if self.echo:
                self.console.print(answer, soft_wrap=True, markup=False)
            return answer

    def _refuse(self, message: str) -> None:
        """Refuse an answer that cannot be shown: end the prompt's line, then say why."""
        if self.echo:
            self.say("")
        self.error(message)

    def _skip_rest_of_line(self, raw: bytes) -> None:
        while raw and not raw.endswith(b"\n"):
            more = self.read_line()
            raw = more.encode() if isinstance(more, str) else more
