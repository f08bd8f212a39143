"""``baloot play``: a whole match to 152 in the terminal, one human against three bots.

The terminal never works out a rule: it offers exactly the engine's legal actions at the moment
the engine gives the human the word, and it lets the engine judge whatever is typed (an illegal
card comes back with the engine's reason, in one line, and the same question is asked again).

In a terminal the table is cleared and redrawn for each of the human's decisions and after each
trick; when the output is not a terminal everything is printed plainly, in order, so that a
script can follow (and drive it through standard input). End of input or Ctrl-C ends the game
with a message and a non-zero status; ``--save`` then keeps the match so far.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.text import Text

from baloot.bots import Bot, choose, make_bot
from baloot.core.actions import Action, Verb, parse_after_seat
from baloot.core.cards import Card, Suit
from baloot.core.errors import IllegalActionError, NotationError
from baloot.core.hand import Hand
from baloot.core.match import TARGET, Match
from baloot.core.rules import Rules
from baloot.core.seats import Seat, Team
from baloot.core.vocabulary import Phase
from baloot.records.record import Record, dumps
from baloot.view.seat_view import SeatView

from .i18n import Strings, strings
from .render import (
    BIDDING_PHASES,
    SUIT_ORDER,
    Seating,
    TableInfo,
    call_label,
    card_text,
    claims_text,
    contract_text,
    hand_order,
    play_text,
    project_text,
    render_sheet,
    render_table,
    shown_pairs,
)

END_OF_INPUT = 1
INTERRUPTED = 130
TERMINAL_DELAY = 0.8
MAX_WIDTH = 100


class EndOfInput(Exception):
    """Standard input ended (Ctrl-D, or the end of a piped script)."""


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


@dataclass(frozen=True)
class Choice:
    """One numbered answer to a question: what it says and the action it stands for."""

    label: Text
    action: Action | None
    words: frozenset[str] = field(default_factory=frozenset)


def _default_read() -> str:
    return input()


class Game:
    """One match between the human and the bots, shown on a rich console."""

    def __init__(
        self,
        options: Options,
        console: Console,
        read: Callable[[], str] = _default_read,
        echo: bool | None = None,
    ) -> None:
        self.options = options
        self.console = console
        self.s: Strings = strings(options.lang)
        self.read_line = read
        self.echo = (not sys.stdin.isatty()) if echo is None else echo
        self.live = console.is_terminal
        delay = options.delay
        self.delay = (TERMINAL_DELAY if self.live else 0.0) if delay is None else delay
        self.human = options.human
        self.seating = Seating(options.human, dict(options.bots))
        self.match = Match.new(
            rng=random.Random(options.seed), dealer=options.dealer, rules=options.rules
        )
        self.bots: dict[Seat, Bot] = {
            seat: make_bot(name, random.Random(options.seed * 8 + int(seat) + 1))
            for seat, name in options.bots.items()
        }
        self.saved = False
        self.save_failed = False
        self.last_trick: Text | None = None

    # ------------------------------------------------------------------ running

    def run(self) -> int:
        """Play the match to its end (or until input ends); the exit status."""
        try:
            self.play()
        except (EndOfInput, EOFError):
            self.say("")
            self.say(self.s("ended_eof"), style="bold yellow")
            self.save_unfinished()
            return END_OF_INPUT
        except KeyboardInterrupt:
            self.say("")
            self.say(self.s("ended_interrupt"), style="bold yellow")
            self.save_unfinished()
            return INTERRUPTED
        return 1 if self.save_failed else 0

    def play(self) -> None:
        """The match, decision by decision."""
        self.intro()
        announced = 0
        match = self.match
        while not match.is_over:
            hand = match.hand
            number = len(match.hands)
            if number != announced:
                announced = number
                self.hand_start(hand, number)
            seat = hand.to_act
            assert seat is not None
            tricks_before = hand.trick_number
            phase_before = hand.phase
            if seat == self.human:
                action = self.ask(hand, number)
            else:
                action = choose(hand, self.bots)
                match.apply(action)
            self.report(hand, action, phase_before)
            if phase_before is Phase.DOUBLING and hand.phase is Phase.PLAYING:
                self.play_starts(hand)
            if hand.trick_number > tricks_before:
                self.trick_done(hand, number)
            if hand.is_over:
                self.hand_done(hand, number)
        self.finish()

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

    def show(self, hand: Hand, number: int, choices: dict[Card, int] | None = None) -> None:
        """Clear and redraw the table in a terminal; print it plainly otherwise."""
        view = SeatView.of(hand, self.human)
        info = TableInfo(
            number=number,
            totals=self.match.totals,
            seed=self.options.seed,
            seating=self.seating,
            bidding_length=hand.bidding_length,
            shown=shown_pairs(view.shown),
            choices=choices,
        )
        if self.live:
            self.console.clear()
        else:
            self.say("")
        self.console.print(render_table(view, info, self.s), width=self.width)

    def intro(self) -> None:
        s = self.s
        o = self.options
        others = s("list_sep").join(f"{s.seat(seat)} {name}" for seat, name in o.bots.items())
        changes = o.rules.changes(Rules.preset(o.preset))
        rules = o.preset
        if changes:
            flags = ", ".join(f"{k}={str(v).lower()}" for k, v in changes.items())
            rules = s("rules_custom", preset=o.preset) + f" ({flags})"
        self.say(
            s(
                "intro",
                seat=s.seat(o.human),
                partner=s.seat(o.human.partner),
                bots=others,
                rules=rules,
                seed=o.seed,
                target=TARGET,
            ),
            style="bold",
        )
        self.say(s("intro_help"), style="dim")

    def hand_start(self, hand: Hand, number: int) -> None:
        s = self.s
        line = Text(
            s("hand_start", number=number, dealer=self.seat_name(hand.dealer)) + " ",
            style="bold",
        )
        line.append_text(card_text(hand.exposed))
        self.say("")
        self.say(line)

    def report(self, hand: Hand, action: Action, phase_before: Phase) -> None:
        """One line per action, as the table hears it."""
        s = self.s
        who = self.seat_name(action.seat)
        if action.verb is Verb.PLAY:
            line = Text(s("event_play", seat=who) + " ")
            line.append_text(play_text(action, s))
            self.say(line)
            return
        if action.verb is Verb.DECLARE:
            self.say(s("event_declare", seat=who, projects=claims_text(action, s)), "magenta")
            return
        round2 = phase_before is Phase.BIDDING_ROUND_2
        self.say(s("event_call", seat=who, call=call_label(action, s, round2=round2)))
        contract = hand.contract
        bidding = phase_before in BIDDING_PHASES or phase_before is Phase.TRUMP_NAMING
        if bidding and contract is not None:
            line = Text(s("contract_label") + ": ", style="bold")
            line.append_text(contract_text(contract, s))
            line.append(" · " + s("took_card", seat=self.seat_name(contract.declarer)) + " ")
            line.append_text(card_text(hand.exposed))
            self.say(line)

    def play_starts(self, hand: Hand) -> None:
        contract = hand.contract
        assert contract is not None
        line = Text(self.s("play_starts") + " ", style="bold")
        line.append_text(contract_text(contract, self.s))
        self.say(line)

    def trick_done(self, hand: Hand, number: int) -> None:
        s = self.s
        view = SeatView.of(hand, self.human)
        leader = hand.to_act
        plays = [a for a in hand.actions if a.verb is Verb.PLAY]
        last = plays[-4:]
        if hand.is_over:
            winner_text = s("last_trick_done")
        else:
            assert leader is not None
            winner_text = s("trick_to", seat=self.seat_name(leader))
        line = Text(s("trick_number", number=len(plays) // 4) + ": ", style="bold")
        for k, action in enumerate(last):
            if k:
                line.append(", ")
            line.append(s.seat(action.seat) + " ")
            line.append_text(card_text(action.card) if action.card else Text("?"))
        line.append(" → " + winner_text, style="green")
        score = "  ·  ".join(
            s(
                "tricks_points",
                team=self.seating.team_label(team, s),
                tricks=view.tricks_won[team],
                points=view.card_points[team],
            )
            for team in Team
        )
        line.append("   (" + score + ")", style="dim")
        self.last_trick = line
        if self.live and not hand.is_over:
            self.show(hand, number)
        self.say(line)
        if self.live and not hand.is_over and self.delay > 0:
            time.sleep(self.delay)

    def hand_done(self, hand: Hand, number: int) -> None:
        result = self.match.results[-1]
        if self.live and self.last_trick is not None and hand.trick_number == 8:
            self.console.clear()
            self.say(self.last_trick)
        else:
            self.show(hand, number)
        self.say("")
        self.console.print(
            render_sheet(result, hand.rules, number, self.match.totals, self.seating, self.s),
            width=self.width,
        )
        if not self.match.is_over:
            self.ask_line(self.s("press_enter"))

    def finish(self) -> None:
        s = self.s
        winner = self.match.winner
        assert winner is not None
        totals = self.match.totals
        ours = winner == self.human.team
        gahwa = self.match.results[-1].gahwa_winner is not None
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
            self.save_failed = not self.write_record(self.options.save)
            return
        while True:
            try:
                answer = self.ask_line(s("save_prompt")).strip()
            except (EndOfInput, EOFError):
                self.say("")
                return
            if not answer:
                self.say(s("not_saved"), style="dim")
                return
            if self.write_record(Path(answer).expanduser()):
                return

    # ------------------------------------------------------------------ records

    def record_text(self) -> str:
        bots = self.options.bots
        players = {
            seat.name: self.options.name if seat == self.human else f"bot:{bots[seat]}"
            for seat in Seat
        }
        record = Record.of(
            self.match, players=players, comment=f"baloot play, seed {self.options.seed}"
        )
        return dumps(record)

    def write_record(self, path: Path) -> bool:
        try:
            path.write_text(self.record_text(), encoding="utf-8")
        except OSError as error:
            self.say(self.s("save_failed", path=str(path), error=error.strerror), style="red")
            return False
        self.saved = True
        self.say(self.s("saved", path=str(path)), style="green")
        return True

    def save_unfinished(self) -> None:
        if self.options.save is not None and not self.saved:
            self.write_record(self.options.save)

    # ------------------------------------------------------------------ input

    def ask_line(self, prompt: str) -> str:
        """Show ``prompt`` and read one line; raise :class:`EndOfInput` at the end of input."""
        self.console.print(Text(prompt, style="bold"), end="")
        self.console.file.flush()
        try:
            answer = self.read_line()
        except EOFError:
            raise EndOfInput from None
        if self.echo:
            self.console.print(answer, soft_wrap=True, markup=False)
        return answer

    def ask(self, hand: Hand, number: int) -> Action:
        """The human's decision, applied; the action as recorded."""
        legal = hand.legal_actions()
        if hand.phase is Phase.PLAYING:
            declares = [a for a in legal if a.verb is Verb.DECLARE]
            if declares:
                declared = self.ask_declaration(hand, number, declares)
                if declared is not None:
                    self.report(hand, declared, Phase.PLAYING)
            return self.ask_card(hand, number)
        self.show(hand, number)
        return self.ask_call(hand, legal)

    def question(
        self,
        hand: Hand,
        title: Text,
        choices: Sequence[Choice],
        prompt_key: str,
        hint_key: str,
        parse: Callable[[str], Action | None],
    ) -> Action | None:
        """Ask until the answer is a choice that the engine accepts; apply it.

        A number picks a choice; anything else is read as the choice's words or, failing
        that, as notation for the engine to judge. Returns the applied action, or None for a
        choice that stands for no action (not declaring).
        """
        s = self.s
        self.say(title)
        listing = Text()
        for k, choice in enumerate(choices, 1):
            if k > 1:
                listing.append("   ")
            listing.append(f"{k}) ", style="bold green")
            listing.append_text(choice.label)
        self.say(listing)
        n = len(choices)
        prompt = s(prompt_key, n=n)
        while True:
            answer = self.ask_line(prompt).strip()
            action: Action | None
            if answer.isdigit():
                k = int(answer)
                if not 1 <= k <= n:
                    self.error(s("not_a_choice", n=n, hint=s(hint_key)))
                    continue
                action = choices[k - 1].action
                if action is None:
                    return None
            else:
                key = answer.casefold()
                picked = [c for c in choices if key and key in c.words]
                if picked:
                    action = picked[0].action
                    if action is None:
                        return None
                else:
                    action = parse(answer) if answer else None
                    if action is None:
                        self.error(s("not_a_choice", n=n, hint=s(hint_key)))
                        continue
            try:
                return self.match.apply(hand.announced(action))
            except IllegalActionError as error:
                self.error(s.reason(error))

    def error(self, message: str) -> None:
        """The one-line reason of a wrong entry."""
        self.say(message, style="bold red")

    # ------------------------------------------------------------------ calls

    def ask_call(self, hand: Hand, legal: Sequence[Action]) -> Action:
        s = self.s
        seat = self.human
        title, pass_key = self.call_context(hand)
        round2 = hand.phase is Phase.BIDDING_ROUND_2
        choices = []
        for action in sorted(legal, key=_call_order):
            if action.verb is Verb.PASS:
                label = s(pass_key)
            else:
                label = call_label(action, s, round2=round2)
            words = {label.casefold(), " ".join(str(action).split()[1:]).casefold()}
            if action.verb is Verb.PASS:
                words |= {s("call_pass").casefold(), "p"}
            if action.verb is Verb.SUN:
                words.add(s("call_sun").casefold())
            if action.suit is not None:
                words |= _suit_words(action.suit, s)
            choices.append(Choice(Text(label), action, frozenset(words)))

        def parse(text: str) -> Action | None:
            try:
                return parse_after_seat(seat, text.casefold().split(), text)
            except NotationError:
                return None

        applied = self.question(
            hand, Text(title, style="bold"), choices, "prompt_call", "hint_call", parse
        )
        assert applied is not None
        return applied

    def call_context(self, hand: Hand) -> tuple[str, str]:
        """The question the human answers now, and how its ``pass`` reads."""
        s = self.s
        question = hand.question
        kind = question.kind.value if question is not None else "bid"
        about = s.seat(question.about) if question is not None and question.about else "?"
        exposed = hand.exposed.pretty
        suit = s.suit_with_symbol(hand.exposed.suit)
        if kind == "bid":
            if hand.phase is Phase.BIDDING_ROUND_2:
                if question is not None and question.about is not None:
                    return s("ask_r2_hokum", seat=about), "call_pass"
                return s("ask_r2", suit=suit), "call_pass"
            if question is not None and question.about is not None:
                return s("ask_r1_hokum", seat=about, suit=suit), "call_pass"
            return s("ask_r1", card=exposed, suit=suit), "call_pass"
        if kind in ("take-over-sun", "take-over-ashkal"):
            key = "ask_takeover_ashkal" if kind == "take-over-ashkal" else "ask_takeover"
            return s(key, seat=about), "pass_let_stand"
        if kind == "confirm-hokum":
            return s("ask_confirm", suit=suit), "pass_keep_hokum"
        if kind == "sun-over-hokum":
            return s("ask_hokum_window", seat=about, suit=suit), "pass_let_stand"
        if kind == "third-round":
            return s("ask_r3", card=exposed), "call_pass"
        if kind == "name-trump":
            return s("ask_naming", suit=suit), "call_pass"
        if kind in ("triple", "four", "gahwa"):
            return s(f"ask_{kind}", seat=about), "pass_no_raise"
        contract = hand.contract
        what = contract_text(contract, s).plain if contract else "?"
        return s("ask_double", contract=what), "pass_no_double"

    # ------------------------------------------------------------------ play

    def ask_declaration(self, hand: Hand, number: int, declares: Sequence[Action]) -> Action | None:
        s = self.s
        if self.options.auto_declare:
            best = max(declares, key=lambda a: len(a.claims))
            return self.match.apply(best)
        self.show(hand, number)
        view = SeatView.of(hand, self.human)
        title = Text(s("ask_declare") + " ", style="bold")
        for k, project in enumerate(view.own_projects):
            if k:
                title.append(", ")
            title.append_text(project_text(project, s))
        choices = [
            Choice(
                Text(s("declare_choice", projects=claims_text(a, s))),
                a,
                frozenset({claims_text(a, s).casefold(), " ".join(str(a).split()[1:])}),
            )
            for a in declares
        ]
        choices.append(
            Choice(Text(s("no_declaration")), None, frozenset({"no", "none", s("no_word")}))
        )

        def parse(text: str) -> Action | None:
            try:
                return parse_after_seat(self.human, text.casefold().split(), text)
            except NotationError:
                return None

        return self.question(hand, title, choices, "prompt_declare", "hint_call", parse)

    def ask_card(self, hand: Hand, number: int) -> Action:
        s = self.s
        legal = hand.legal_actions()
        trump = hand.contract.trump if hand.contract else None
        plays = [a for a in legal if a.verb is Verb.PLAY and not a.ekka and a.card is not None]
        ekkas = [a for a in legal if a.verb is Verb.PLAY and a.ekka]
        order = hand_order([a.card for a in plays if a.card is not None], trump)
        by_card = {a.card: a for a in plays}
        choices: list[Choice] = []
        numbers: dict[Card, int] = {}
        for card in order:
            numbers[card] = len(choices) + 1
            choices.append(Choice(card_text(card), by_card[card], frozenset()))
        for action in ekkas:
            assert action.card is not None
            label = card_text(action.card)
            label.append(" + " + s("ekka"), style="bold")
            choices.append(Choice(label, action, frozenset()))
        self.show(hand, number, numbers)
        trick = hand.current_trick
        if trick:
            led = trick[0][1]
            title = Text(s("ask_follow", seat=self.seat_name(trick[0][0])) + " ")
            title.append_text(card_text(led))
        else:
            title = Text(s("ask_lead"))
        title.stylize("bold")
        seat = self.human

        def parse(text: str) -> Action | None:
            return parse_card_answer(seat, text)

        applied = self.question(hand, title, choices, "prompt_card", "hint_card", parse)
        assert applied is not None
        return applied


_CALL_RANK = {
    Verb.PASS: 0,
    Verb.HOKUM: 1,
    Verb.TRUMP: 1,
    Verb.DOUBLE: 1,
    Verb.TRIPLE: 1,
    Verb.FOUR: 1,
    Verb.GAHWA: 1,
    Verb.SUN: 2,
    Verb.ASHKAL: 3,
    Verb.KAWESH: 4,
}


def _call_order(action: Action) -> tuple[int, bool, int]:
    """Pass first, then the raise (open before locked, trumps by suit), Sun, Ashkal, Kawesh."""
    suit = SUIT_ORDER.index(action.suit) if action.suit is not None else 0
    return (_CALL_RANK.get(action.verb, 5), bool(action.locked), suit)


def _suit_words(suit: Suit, s: Strings) -> set[str]:
    english = ("spades", "hearts", "diamonds", "clubs")[suit]
    return {suit.letter, suit.symbol, english, s.suit(suit).casefold()}


def read_card(word: str) -> Card:
    """A typed card: ``Td``, ``10d``, ``T♦``, ``td``, ``10D``; raise NotationError if not one."""
    word = word.strip().removesuffix("\ufe0f")
    if len(word) < 2:
        raise NotationError(f"unknown card {word!r}")
    return Card.parse(word[:-1].upper() + word[-1])


def parse_card_answer(seat: Seat, text: str) -> Action | None:
    """What a typed answer to "your card" means: a card (optionally ``ekka``), or any action in
    record notation (``declare sira``); None if it means nothing."""
    words = text.split()
    if words and words[0].casefold() == "play":
        words = words[1:]
    if not words:
        return None
    try:
        card = read_card(words[0])
    except NotationError:
        try:
            return parse_after_seat(seat, [w.casefold() for w in words], text)
        except NotationError:
            return None
    extras = {w.casefold() for w in words[1:]}
    if not extras <= {"ekka", "baloot", "e"}:
        return None
    return Action(seat, Verb.PLAY, card=card, ekka=bool(extras & {"ekka", "e"}))
