"""The commands typed instead of an answer: ``?`` help, ``l`` last tricks, ``s`` the running
sheet, ``u`` undo, ``h`` a hint, ``c`` claim the rest (sawa).

They work at every question and between hands, so a player can look back, ask for advice
or take a decision back without leaving the question. Undo and claim change the position
under the question; they raise :class:`Redo` so that the game asks afresh.
"""

from __future__ import annotations

from collections.abc import Callable

from baloot.bots.best_hints import BestHints
from baloot.core.actions import Action
from baloot.core.errors import IllegalActionError
from baloot.table import Event, Table
from baloot.words.hints import hint_lines
from baloot.words.strings import Strings

from .render import Seating
from .screens import action_line, running_sheet, trick_page
from .terminal import Terminal

#: What may be typed (after casefolding), and the command it names.
COMMANDS = {
    "?": "help",
    "help": "help",
    "l": "last",
    "last": "last",
    "s": "sheet",
    "sheet": "sheet",
    "u": "undo",
    "undo": "undo",
    "h": "hint",
    "hint": "hint",
    "c": "claim",
    "claim": "claim",
    "sawa": "claim",
    "سوا": "claim",
}


class Redo(Exception):
    """The position changed under a question (undo, claim): ask afresh."""


class Commands:
    """The commands of the human at ``table``, answered on ``terminal``.

    ``report`` tells the game's events (a claim's); ``undone`` tells the game that actions
    it reported were taken back, so that it counts them afresh.
    """

    def __init__(
        self,
        table: Table,
        terminal: Terminal,
        s: Strings,
        seating: Seating,
        hint_bot: BestHints,
        report: Callable[[list[Event]], None],
        undone: Callable[[], None],
    ) -> None:
        self.table = table
        self.terminal = terminal
        self.s = s
        self.seating = seating
        self.human = seating.human
        self.hint_bot = hint_bot
        self.report = report
        self.undone = undone
        self._page = 0

    def typed(self, answer: str) -> bool:
        """Run the command that ``answer`` names, if it names one (then True)."""
        name = COMMANDS.get(answer.casefold())
        if name is None:
            return False
        if name == "help":
            self.terminal.say(self.s("commands"), style="cyan")
        elif name == "last":
            self.page_back()
        elif name == "sheet":
            self.sheet()
        elif name == "undo":
            self.undo()
        elif name == "hint":
            self.hint()
        elif name == "claim":
            self.claim()
        return True

    def restart_paging(self) -> None:
        """The next ``l`` shows the latest trick again (a trick or a hand has begun)."""
        self._page = 0

    def page_back(self) -> None:
        """Show the completed tricks of the hand, one further back at each ``l``."""
        tricks = [t for t in self.table.hand.tricks() if t.winner is not None]
        if not tricks:
            self.terminal.say(self.s("no_trick_yet"), style="dim")
            return
        index = len(tricks) - 1 - self._page % len(tricks)
        self._page += 1
        trick = tricks[index]
        assert trick.winner is not None
        winner = self.seating.name(trick.winner, self.s)
        self.terminal.print(trick_page(trick, index + 1, winner, self.s))

    def sheet(self) -> None:
        """The match so far, hand by hand, from the human's side."""
        match = self.table.match
        self.terminal.show(running_sheet(match, self.seating, self.s))

    def undo(self) -> None:
        """Take back the human's last decision and the bots' answers after it."""
        match = self.table.match
        before = sum(len(h.actions) for h in match.hands)
        last = next(
            (a for h in reversed(match.hands) for a in reversed(h.actions) if a.seat == self.human),
            None,
        )
        try:
            self.table.undo(self.human)
        except IllegalActionError:
            self.terminal.error(self.s("nothing_undone"))
            return
        after = sum(len(h.actions) for h in match.hands)
        self.undone()
        assert last is not None
        words = self._action_words(last)
        self.terminal.say(self.s("undone", action=words, count=before - after - 1), style="yellow")
        raise Redo

    def hint(self) -> None:
        """What the best bot would do here, and why."""
        view = self.table.view(self.human)
        if not view.legal:
            return
        hint = self.hint_bot.explain(view, view.legal)
        say = self.terminal.say
        say(self.s("hint_line", choice=self._action_words(hint.action)), style="cyan")
        for line in hint_lines(hint, self.s.lang):
            say(self.s("hint_why", reason=line), style="cyan")

    def _action_words(self, action: Action) -> str:
        return action_line(action, self.seating.name(action.seat, self.s), self.s).plain

    def claim(self) -> None:
        """Sawa: claim the rest when the human's cards are sure to win it."""
        try:
            events = self.table.claim(self.human)
        except IllegalActionError as error:
            self.terminal.error(self.s("claim_refused", reason=self.s.reason(error, self.human)))
            return
        claimed = self.s("claimed", seat=self.seating.name(self.human, self.s))
        self.terminal.say(claimed, style="bold green")
        self.report(events)
        raise Redo
