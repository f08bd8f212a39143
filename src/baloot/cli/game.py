"""``baloot play``: a whole match to 152 in the terminal, one human against three bots.

The terminal drives a :class:`~baloot.table.Table` like any other client: it shows the
human's :class:`~baloot.view.SeatView`, reads a decision, submits it, and reports the events
the table returns; bots decide through the same table. The engine judges everything typed (an
illegal card comes back with the engine's reason, in one line, and the same question again).

In a terminal the table is cleared and redrawn for each of the human's decisions and after each
trick; when the output is not a terminal everything is printed plainly, in order, so that a
script can follow (and drive it through standard input). End of input, Ctrl-C, SIGTERM and
SIGHUP end the game with a message and a non-zero status, and the match so far is saved.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

from rich.console import Console
from rich.text import Text

from baloot.bots import HeuristicBot, make_bot
from baloot.core.actions import Action, Verb
from baloot.core.cards import Card
from baloot.core.errors import IllegalActionError, NotationError
from baloot.core.match import TARGET, Match
from baloot.core.rules import Rules
from baloot.core.seats import Seat, Team
from baloot.core.vocabulary import Phase, Trick
from baloot.records.record import dumps
from baloot.table import Event, EventKind, Player, Table, WaitKind
from baloot.view.seat_view import SeatView, heard

from .hint_words import hint_lines
from .i18n import Strings, strings
from .questions import (
    Choice,
    Question,
    call_question,
    card_question,
    choose_answer,
    declaration_question,
    forced_single_card,
)
from .render import Seating, TableInfo, card_text, contract_text, render_sheet, render_table
from .saving import SaveError, autosave_path, save_path, write_record
from .screens import action_line, running_sheet, trick_line, trick_page

END_OF_INPUT = 1
INTERRUPTED = 130
TERMINAL_DELAY = 0.8
MAX_WIDTH = 100
#: The longest answer read, in bytes: a card, a number or a file name.
MAX_ANSWER = 1024

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


class EndOfInput(Exception):
    """Standard input ended (Ctrl-D, or the end of a piped script)."""


class Stopped(Exception):
    """A signal (SIGTERM, SIGHUP) asked the game to stop."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


class _Redo(Exception):
    """The position changed under a question (undo): ask afresh."""


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


class GameConsole(Console):
    """A rich console that hands a closed output back to the game (which then keeps the
    match) instead of exiting at once."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        raise BrokenPipeError


def _default_read() -> bytes:
    return sys.stdin.buffer.readline(MAX_ANSWER + 1)


class Game:
    """One match between the human and the bots, shown on a rich console."""

    def __init__(
        self,
        options: Options,
        console: Console,
        read: Callable[[], bytes | str] = _default_read,
        echo: bool | None = None,
        table: Table | None = None,
        interactive: bool | None = None,
    ) -> None:
        self.options = options
        self.console = console
        self.s: Strings = strings(options.lang)
        self.read_line = read
        self.interactive = sys.stdin.isatty() if interactive is None else interactive
        self.echo = (not self.interactive) if echo is None else echo
        self.live = console.is_terminal
        delay = options.delay
        self.delay = (TERMINAL_DELAY if self.live else 0.0) if delay is None else delay
        self.human = options.human
        self.seating = Seating(options.human, dict(options.bots))
        if table is None:
            players = {
                seat: Player.human(options.name)
                if seat == options.human
                else Player.bot(options.bots[seat])
                for seat in Seat
            }
            bots = {
                seat: make_bot(options.bots.get(seat, "heuristic"), self._bot_rng(seat))
                for seat in Seat
            }
            table = Table.new(players, bots, options.rules, options.seed, options.dealer)
        self.table = table
        self.hint_bot = HeuristicBot(random.Random(options.seed))
        self.saved = False
        self.save_failed = False
        self._declined: set[int] = set()
        self._actions_reported = 0
        self._page = 0
        self._sheet_shown = 0

    def _bot_rng(self, seat: Seat) -> random.Random:
        return random.Random(self.options.seed * 8 + int(seat) + 1)

    @property
    def match(self) -> Match:
        """The match played (for tests that read it)."""
        return self.table.match

    # ------------------------------------------------------------------ running

    def run(self) -> int:
        """Play the match to its end (or until it is stopped); the exit status."""
        try:
            with _stop_on_signals():
                self.play()
        except EndOfInput:
            self.say("")
            self.say(self.s("ended_eof"), style="bold yellow")
            self.save_unfinished()
            return END_OF_INPUT
        except KeyboardInterrupt:
            self.say("")
            self.say(self.s("ended_interrupt"), style="bold yellow")
            self.save_unfinished()
            return INTERRUPTED
        except Stopped as stop:
            self.say("")
            self.say(self.s("ended_signal"), style="bold yellow")
            self.save_unfinished()
            return 128 + stop.signum
        except BrokenPipeError:
            return self.output_closed()
        return 1 if self.save_failed else 0

    def output_closed(self) -> int:
        """Standard output was closed (``| head``): keep the match, report on stderr."""
        self.console = Console(stderr=True, no_color=True, highlight=False, markup=False)
        self.say("baloot play: the output was closed; the game stops here.")
        self.save_unfinished()
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
                except _Redo:
                    continue

    # ------------------------------------------------------------------ output

    def say(self, text: str | Text, style: str = "") -> None:
        """One line of output, never re-wrapped."""
        if isinstance(text, str):
            text = Text(text, style=style)
        self.console.print(text, soft_wrap=True)

    @property
    def width(self) -> int:
        """The width of the table and the sheet: the terminal's, up to 100 columns."""
        return min(self.console.width, MAX_WIDTH)

    def seat_name(self, seat: Seat) -> str:
        """``S (you)`` or ``W``."""
        if seat == self.human:
            return self.s("seat_you", seat=self.s.seat(seat))
        return self.s.seat(seat)

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
            self.console.clear()
        else:
            self.say("")
        self.console.print(render_table(self.view(), info, self.s), width=self.width)

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
        self._page = 0

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
        assert event.action is not None
        hand = self.table.match.hands[event.hand - 1]
        index = self._actions_reported
        self._actions_reported += 1
        action = heard(event.action, self.human)
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
        self._page = 0
        if self.live and not last and self.delay > 0:
            time.sleep(self.delay)

    def hand_done(self) -> None:
        table = self.table
        hand = table.hand
        result = hand.result()
        if self.live:
            self.show()
        self.say("")
        self.console.print(
            render_sheet(
                result, hand.rules, table.hand_number, table.match.totals, self.seating, self.s
            ),
            width=self.width,
        )
        self._sheet_shown = table.hand_number

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
        if self.options.save is not None:
            self.save_failed = not self.write(self.options.save)
        elif self.interactive:
            self.ask_save()

    # ------------------------------------------------------------------ records

    def record_text(self) -> str:
        return dumps(self.table.record(comment=f"baloot play, seed {self.options.seed}"))

    def write(self, path: Path) -> bool:
        try:
            write_record(path, self.record_text())
        except OSError as error:
            reason = error.strerror or str(error)
            self.say(self.s("save_failed", path=str(path), error=reason), style="red")
            return False
        self.saved = True
        self.say(self.s("saved", path=str(path)), style="green")
        return True

    def ask_save(self) -> None:
        """Offer to save the finished match; never replace a file without asking."""
        s = self.s
        while True:
            try:
                answer = self.ask_line(s("save_prompt")).strip()
            except EndOfInput:
                self.say("")
                return
            if not answer:
                self.say(s("not_saved"), style="dim")
                return
            try:
                path = save_path(answer)
            except SaveError as error:
                self.error(str(error))
                continue
            if path.exists():
                confirm = self.ask_line(s("replace_prompt", path=str(path))).strip().casefold()
                if confirm not in ("y", "yes", "نعم"):
                    continue
            if self.write(path):
                return

    def save_unfinished(self) -> None:
        """Keep an interrupted match: to ``--save``, else to a new autosave file."""
        if self.saved or not any(h.actions for h in self.table.match.hands):
            return
        if self.options.save is not None:
            self.write(self.options.save)
            return
        try:
            path = autosave_path(self.options.seed)
        except OSError as error:
            self.say(self.s("save_failed", path="~/.local/state", error=error), style="red")
            return
        if self.write(path):
            self.say(self.s("autosaved", path=str(path)), style="green")

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

    def error(self, message: str) -> None:
        """The one-line reason of a wrong entry."""
        self.say(message, style="bold red")

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
            self.say(self.s("forced", reason=self.s.rule(view.restriction)), style="yellow")
        if self.table.claim_holds(self.human):
            self.say(self.s("claim_offer"), style="bold green")
        self.ask(question)

    def ask(self, question: Question) -> bool:
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
            answer = self.ask_line(prompt).strip()
            command = COMMANDS.get(answer.casefold())
            if command is not None:
                self.command(command)
                continue
            picked = choose_answer(question, answer)
            if picked is None:
                self.error(s("not_a_choice", n=n, hint=s(question.hint_key)))
                continue
            action = picked.action if isinstance(picked, Choice) else picked
            if action is None:
                return False
            try:
                events = self.table.submit(self.human, action)
            except (IllegalActionError, NotationError) as error:
                self.error(self._reason(error))
                continue
            self.report(events)
            return True

    def _reason(self, error: IllegalActionError | NotationError) -> str:
        if isinstance(error, IllegalActionError):
            return self.s.reason(error)
        return str(error)

    def between_hands(self) -> None:
        """After a hand: the sheet is shown; Enter deals the next one (commands work too)."""
        if self._sheet_shown != self.table.hand_number:
            self.hand_done()
        while True:
            answer = self.ask_line(self.s("press_enter")).strip()
            command = COMMANDS.get(answer.casefold())
            if command is None:
                break
            try:
                self.command(command)
            except _Redo:
                return
        self.report(self.table.ready(self.human))

    # ------------------------------------------------------------------ commands

    def command(self, name: str) -> None:
        """Run a command typed instead of an answer (``?``, ``l``, ``s``, ``u``, ``h``, ``c``)."""
        if name == "help":
            self.say(self.s("commands"), style="cyan")
        elif name == "last":
            self.page_back()
        elif name == "sheet":
            match = self.table.match
            self.console.print(
                running_sheet(match.hands, match.results, match.score_before, self.seating, self.s),
                width=self.width,
            )
        elif name == "undo":
            self.undo()
        elif name == "hint":
            self.hint()
        elif name == "claim":
            self.claim()

    def page_back(self) -> None:
        """Show the completed tricks of the hand, one further back at each ``l``."""
        tricks = [t for t in self.table.hand.tricks() if t.winner is not None]
        if not tricks:
            self.say(self.s("no_trick_yet"), style="dim")
            return
        index = len(tricks) - 1 - self._page % len(tricks)
        self._page += 1
        trick = tricks[index]
        assert trick.winner is not None
        self.console.print(trick_page(trick, index + 1, self.seat_name(trick.winner), self.s))

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
            self.error(self.s("nothing_undone"))
            return
        after = sum(len(h.actions) for h in match.hands)
        self._actions_reported = len(match.hand.actions)
        self._sheet_shown = 0
        self._declined.discard(self.table.hand_number)
        self.say(self.s("undone", action=str(last), count=before - after - 1), style="yellow")
        raise _Redo

    def hint(self) -> None:
        """What the heuristic bot would do here, and why."""
        view = self.view()
        if not view.legal:
            return
        hint = self.hint_bot.explain(view, view.legal)
        self.say(self.s("hint_line", choice=self._action_words(hint.action)), style="cyan")
        for line in hint_lines(hint, self.options.lang):
            self.say(self.s("hint_why", reason=line), style="cyan")

    def _action_words(self, action: Action) -> str:
        return action_line(action, self.seat_name(action.seat), self.s).plain

    def claim(self) -> None:
        """Sawa: claim the rest when the human's cards are sure to win it."""
        try:
            events = self.table.claim(self.human)
        except IllegalActionError as error:
            self.error(self.s("claim_refused", reason=self.s.reason(error)))
            return
        self.say(self.s("claimed", seat=self.seat_name(self.human)), style="bold green")
        self.report(events)
        raise _Redo


@contextmanager
def _stop_on_signals() -> Iterator[None]:
    """SIGTERM and SIGHUP stop the game like Ctrl-C does (the match is saved)."""

    def stop(signum: int, frame: FrameType | None) -> None:
        raise Stopped(signum)

    previous = {}
    for signum in (signal.SIGTERM, signal.SIGHUP):
        with contextlib.suppress(ValueError):  # not the main thread: leave signals alone
            previous[signum] = signal.signal(signum, stop)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
