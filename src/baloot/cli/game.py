"""``baloot play``: a whole match to 152 in the terminal, one human against three bots.

The terminal drives a :class:`~baloot.table.Table` like any other client: it shows the
human's :class:`~baloot.view.SeatView`, reads a decision, submits it, and reports the events
the table returns; bots decide through the same table. The engine judges everything typed (an
illegal card comes back with the engine's reason, in one line, and the same question again).

In a terminal the table is cleared and redrawn for each of the human's decisions and after each
trick; when the output is not a terminal everything is printed plainly, in order, so that a
script can follow (and drive it through standard input). End of input, Ctrl-C, SIGTERM and
SIGHUP end the game with a message and a non-zero status, and the match so far is saved.

This module is the flow of the game: whom the table waits for, what is reported and what is
asked. Reading answers is :mod:`baloot.cli.terminal`, the commands typed instead of an
answer are :mod:`baloot.cli.commands`, and keeping the match is :mod:`baloot.cli.keeping`.
"""

from __future__ import annotations

import random
import signal
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from rich.console import Console
from rich.text import Text

from baloot.bots import Bot, make_bot
from baloot.bots.best_hints import BestHints
from baloot.bots.levels import DEFAULT_OPPONENT
from baloot.core.actions import Verb
from baloot.core.cards import Card
from baloot.core.errors import IllegalActionError, NotationError
from baloot.core.match import TARGET, Match
from baloot.core.rules import Rules
from baloot.core.seats import Seat, Team
from baloot.core.vocabulary import Phase, Trick
from baloot.table import Event, EventKind, Player, Table, WaitKind
from baloot.view.seat_view import SeatView
from baloot.words.strings import Strings, strings

from .commands import Commands, Redo
from .keeping import PLAY_COMMAND, Keeper
from .questions import (
    Choice,
    Prompt,
    call_question,
    card_question,
    choose_answer,
    declaration_question,
    forced_single_card,
)
from .render import Seating, TableInfo, card_text, contract_text, render_sheet, render_table
from .screens import action_line, trick_line
from .signals import INTERRUPTED, Stopped, stopping_on
from .terminal import EndOfInput, GameConsole, Terminal, read_stdin

# GameConsole is the console a Game is shown on: it is named here with the game.
__all__ = [
    "DEFAULT_BOT",
    "END_OF_INPUT",
    "INTERRUPTED",
    "TERMINAL_DELAY",
    "Game",
    "GameConsole",
    "Options",
    "new_table",
    "seat_bots",
]

END_OF_INPUT = 1
TERMINAL_DELAY = 0.8
#: The bot at a seat that names none (and at the human's seat, which the table fills too).
DEFAULT_BOT: Final = DEFAULT_OPPONENT


@dataclass
class Options:
    """What the command line asked for, checked."""

    human: Seat
    bots: dict[Seat, str]
    seed: int
    rules: Rules
    preset: str
    lang: str
    save: Path | None
    name: str
    dealer: Seat
    auto_declare: bool
    delay: float | None
    no_color: bool
    auto: bool = False
    force: bool = False
    resume: Path | None = None
    #: The command the game was started with, as the way to go on with it is said.
    command: tuple[str, ...] = PLAY_COMMAND


def seat_bots(names: Mapping[Seat, str], seed: int) -> dict[Seat, Bot]:
    """A bot at every seat, by ``names`` (else :data:`DEFAULT_BOT`), each with a random
    stream of its own drawn from ``seed``: a new match and a resumed one seat the same bots."""
    return {
        seat: make_bot(names.get(seat, DEFAULT_BOT), random.Random(seed * 8 + int(seat) + 1))
        for seat in Seat
    }


def new_table(options: Options) -> Table:
    """The table of a new match: the human at their seat, the bots at the others."""
    players = {
        seat: Player.human(options.name)
        if seat == options.human
        else Player.bot(options.bots[seat])
        for seat in Seat
    }
    return Table.new(
        players, seat_bots(options.bots, options.seed), options.rules, options.seed, options.dealer
    )


class Game:
    """One match between the human and the bots, shown on a rich console."""

    def __init__(
        self,
        options: Options,
        console: Console,
        read: Callable[[], bytes | str] = read_stdin,
        echo: bool | None = None,
        table: Table | None = None,
        interactive: bool | None = None,
    ) -> None:
        self.options = options
        self.s: Strings = strings(options.lang)
        self.interactive = sys.stdin.isatty() if interactive is None else interactive
        echo = (not self.interactive) if echo is None else echo
        self.terminal = Terminal(console, self.s, read, echo)
        self.say = self.terminal.say
        self.live = console.is_terminal
        delay = options.delay
        self.delay = (TERMINAL_DELAY if self.live else 0.0) if delay is None else delay
        self.human = options.human
        self.seating = Seating(options.human, dict(options.bots))
        self.table = new_table(options) if table is None else table
        self.keeper = Keeper(
            self.table, self.terminal, self.s, options.seed, options.save, options.command
        )
        self.commands = Commands(
            self.table,
            self.terminal,
            self.s,
            self.seating,
            BestHints(random.Random(options.seed)),
            report=self.report,
            undone=self.undone,
        )
        self._declined: set[int] = set()
        self._actions_reported = 0
        self._sheet_shown = 0

    @property
    def match(self) -> Match:
        """The match played (for tests that read it)."""
        return self.table.match

    # ------------------------------------------------------------------ running

    def run(self) -> int:
        """Play the match to its end (or until it is stopped); the exit status."""
        try:
            with stopping_on(signal.SIGTERM, signal.SIGHUP):
                self.play()
        except EndOfInput:
            return self.ended("ended_eof", END_OF_INPUT)
        except KeyboardInterrupt:
            return self.ended("ended_interrupt", INTERRUPTED)
        except Stopped as stop:
            return self.ended("ended_signal", stop.status)
        except BrokenPipeError:
            return self.output_closed()
        return 1 if self.keeper.failed else 0

    def ended(self, why: str, status: int) -> int:
        """The game stopped before the match ended: say ``why``, keep the match; ``status``."""
        self.say("")
        self.say(self.s(why), style="bold yellow")
        self.keeper.save_unfinished()
        return status

    def output_closed(self) -> int:
        """Standard output was closed (``| head``): keep the match, report on stderr."""
        self.terminal.to_stderr()
        self.say("baloot play: the output was closed; the game stops here.")
        self.keeper.save_unfinished()
        return END_OF_INPUT

    def play(self) -> None:
        """The match, step by step: whoever the table waits for acts."""
        self.intro()
        table = self.table
        if self.options.resume is not None:
            ns, ew = table.match.totals
            self.say(
                self.s("resumed", path=self.options.resume, number=table.hand_number, ns=ns, ew=ew),
                style="bold",
            )
        self._actions_reported = len(table.hand.actions)
        self.hand_start()
        while True:
            waiting = table.waiting()
            if waiting.kind is WaitKind.OVER:
                self.finish()
                return
            if waiting.kind is WaitKind.NEXT:
                self.between_hands()
            elif waiting.kind is WaitKind.BOT:
                self.report(table.play_bot())
            else:
                try:
                    self.decide()
                except Redo:
                    continue

    # ------------------------------------------------------------------ output

    def seat_name(self, seat: Seat) -> str:
        """``S (you)`` or ``W``."""
        return self.seating.name(seat, self.s)

    def view(self) -> SeatView:
        """The human's view of the hand in play."""
        return self.table.view(self.human)

    def show(self, choices: dict[Card, int] | None = None) -> None:
        """Clear and redraw the table in a terminal; print it plainly otherwise."""
        info = TableInfo(
            number=self.table.hand_number,
            totals=self.table.match.totals,
            seed=self.options.seed,
            seating=self.seating,
            rules=self.rules_text(),
            choices=choices,
        )
        if self.live:
            self.terminal.clear()
        else:
            self.say("")
        self.terminal.show(render_table(self.view(), info, self.s))

    def rules_text(self) -> str:
        """The preset, and the flags that differ from it."""
        o = self.options
        changes = o.rules.changes(Rules.preset(o.preset))
        if not changes:
            return o.preset
        flags = ", ".join(f"{k}={str(v).lower()}" for k, v in changes.items())
        return self.s("rules_custom", preset=o.preset) + f" ({flags})"

    def intro(self) -> None:
        s = self.s
        o = self.options
        others = s("list_sep").join(f"{s.seat(seat)} {name}" for seat, name in o.bots.items())
        self.say(
            s(
                "intro",
                seat=s.seat(o.human),
                partner=s.seat(o.human.partner),
                bots=others,
                rules=self.rules_text(),
                seed=o.seed,
                target=TARGET,
            ),
            style="bold",
        )
        self.say(s("intro_help") + " " + s("commands_hint") + ".", style="dim")

    def hand_start(self) -> None:
        hand = self.table.hand
        line = Text(
            self.s("hand_start", number=self.table.hand_number, dealer=self.seat_name(hand.dealer))
            + " ",
            style="bold",
        )
        line.append_text(card_text(hand.exposed))
        self.say("")
        self.say(line)
        self.commands.restart_paging()

    def report(self, events: list[Event]) -> None:
        """Each event as the human's seat heard it."""
        for event in events:
            if event.kind is EventKind.ACTION and event.action is not None:
                self.report_action(event)
            elif event.kind is EventKind.HAND_OVER:
                self.hand_done()
            elif event.kind is EventKind.DEAL:
                self._actions_reported = 0
                self.hand_start()

    def report_action(self, event: Event) -> None:
        action = event.heard_by(self.human)
        assert action is not None
        hand = self.table.match.hands[event.hand - 1]
        index = self._actions_reported
        self._actions_reported += 1
        round2 = hand.round_two_start is not None and index >= hand.round_two_start
        self.say(action_line(action, self.seat_name(action.seat), self.s, round2))
        contract = hand.contract
        bidding_end = hand.bidding_length
        if contract is not None and bidding_end is not None and index == bidding_end - 1:
            line = Text(self.s("contract_label") + ": ", style="bold")
            line.append_text(contract_text(contract, self.s))
            line.append(" · " + self.s("took_card", seat=self.seat_name(contract.declarer)) + " ")
            line.append_text(card_text(hand.exposed))
            self.say(line)
        if (
            contract is not None
            and bidding_end is not None
            and index == bidding_end + len(hand.doubling()) - 1
            and hand.phase is not Phase.DOUBLING
        ):
            line = Text(self.s("play_starts") + " ", style="bold")
            line.append_text(contract_text(contract, self.s))
            self.say(line)
        if event.trick is not None:
            self.trick_done(event.trick, len(hand.tricks()), hand.is_over)

    def trick_done(self, trick: Trick, number: int, last: bool) -> None:
        assert trick.winner is not None
        line = trick_line(trick, number, self.seat_name(trick.winner), self.s)
        view = self.view()
        score = "  ·  ".join(
            self.s(
                "tricks_points",
                team=self.seating.team_label(team, self.s),
                tricks=view.tricks_won[team],
                points=view.card_points[team],
            )
            for team in Team
        )
        line.append("   (" + score + ")", style="dim")
        if self.live and not last:
            self.show()
        self.say(line)
        self.commands.restart_paging()
        if self.live and not last and self.delay > 0:
            time.sleep(self.delay)

    def hand_done(self) -> None:
        table = self.table
        hand = table.hand
        result = hand.result()
        if self.live:
            self.show()
        self.say("")
        self.terminal.show(
            render_sheet(
                result, hand.rules, table.hand_number, table.match.totals, self.seating, self.s
            )
        )
        self._sheet_shown = table.hand_number

    def undone(self) -> None:
        """Actions were taken back (``u``): the hand's actions are counted afresh, its sheet
        is shown again when it ends again, and a declaration declined is offered again."""
        self._actions_reported = len(self.table.hand.actions)
        self._sheet_shown = 0
        self._declined.discard(self.table.hand_number)

    def finish(self) -> None:
        s = self.s
        match = self.table.match
        winner = match.winner
        assert winner is not None
        totals = match.totals
        ours = winner == self.human.team
        gahwa = bool(match.results) and match.results[-1].gahwa_winner is not None
        self.say("")
        self.say(
            s(
                "winner",
                team=winner.name,
                who=s("we_win" if ours else "they_win"),
                ns=totals[0],
                ew=totals[1],
                gahwa=" " + s("by_gahwa") if gahwa else "",
            ),
            style="bold green" if ours else "bold red",
        )
        self.keeper.save_finished(self.interactive)

    # ------------------------------------------------------------------ questions

    def decide(self) -> None:
        """The human's decision in the hand in play, submitted to the table."""
        view = self.view()
        number = self.table.hand_number
        if view.phase is not Phase.PLAYING:
            self.show()
            self.ask(call_question(view, self.s))
            return
        declares = [a for a in view.legal if a.verb is Verb.DECLARE]
        if declares and number not in self._declined:
            if self.options.auto_declare:
                best = max(declares, key=lambda a: len(a.claims))
                self.report(self.table.submit(self.human, best))
                return
            self.show()
            if not self.ask(declaration_question(view, self.s)):
                self._declined.add(number)
            return
        only = forced_single_card(view)
        if only is not None and self.options.auto:
            line = Text(self.s("auto_played", seat=self.seat_name(self.human)) + " ")
            assert only.card is not None
            line.append_text(card_text(only.card))
            self.say(line, style="dim")
            self.report(self.table.submit(self.human, only))
            return
        question = card_question(view, self.s, self.seat_name)
        self.show(question.card_numbers)
        if view.restriction is not None:
            self.say(
                self.s("forced", reason=self.s.rule(view.restriction, self.human)), style="yellow"
            )
        if self.table.claim_holds(self.human):
            self.say(self.s("claim_offer"), style="bold green")
        self.ask(question)

    def ask(self, question: Prompt) -> bool:
        """Ask until an answer is a choice the engine accepts; submit it. False for a choice
        that stands for no action (not declaring)."""
        s = self.s
        self.say(question.title)
        listing = Text()
        for k, choice in enumerate(question.choices, 1):
            if k > 1:
                listing.append("   ")
            listing.append(f"{k}) ", style="bold green")
            listing.append_text(choice.label)
        self.say(listing)
        n = len(question.choices)
        prompt = s(question.prompt_key, n=n)
        while True:
            answer = self.terminal.ask_line(prompt).strip()
            if self.commands.typed(answer):
                continue
            picked = choose_answer(question, answer)
            if picked is None:
                self.terminal.error(s("not_a_choice", n=n, hint=s(question.hint_key)))
                continue
            action = picked.action if isinstance(picked, Choice) else picked
            if action is None:
                return False
            try:
                events = self.table.submit(self.human, action)
            except (IllegalActionError, NotationError) as error:
                self.terminal.error(self._reason(error))
                continue
            self.report(events)
            return True

    def _reason(self, error: IllegalActionError | NotationError) -> str:
        if isinstance(error, IllegalActionError):
            return self.s.reason(error, self.human)
        return str(error)

    def between_hands(self) -> None:
        """After a hand: the sheet is shown; Enter deals the next one (commands work too)."""
        if self._sheet_shown != self.table.hand_number:
            self.hand_done()
        while True:
            answer = self.terminal.ask_line(self.s("press_enter")).strip()
            try:
                if not self.commands.typed(answer):
                    break
            except Redo:
                return
        self.report(self.table.ready(self.human))
