"""``baloot analyze``: every decision of a record judged, as a report or JSON (``--json``).

For each play and declaration, the exact value of every option in the real deal, what a bot
would have chosen from the seat's view alone, the loss of the choice made and its mark (``?!``
``?`` ``??``); for calls, the bot's estimates. ``--hand N --position K`` lists every option of
one decision. The computation is :mod:`baloot.analysis`; the words are
:mod:`baloot.words.analysis`.

A progress bar goes to standard error when it is a terminal, so ``--json`` output stays clean.
Exit status: 0, 1 for a record with an illegal action, 2 for a file that is not a record or a
bad option (one line on standard error), 130 on Ctrl-C and 143 on SIGTERM.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console, Group, RenderableType
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from baloot.analysis import (
    DEFAULT_BOT,
    FORMAT,
    THRESHOLDS,
    Analysis,
    Decision,
    HandAnalysis,
    Mark,
    SolverAndBot,
    Tally,
    Unit,
    analyze_position,
    analyze_record,
    mark_of,
)
from baloot.analysis.model import tally
from baloot.core.actions import Action, Verb
from baloot.core.hand import Hand
from baloot.core.seats import Seat
from baloot.records.record import loads
from baloot.records.replay import ReplayError
from baloot.words.strings import LANGUAGES, Strings, strings

from .files import Output, printable, read_record_text, silence_stdout
from .options import seed
from .render import call_label, contract_text, play_text
from .signals import until_interrupted

HELP = "judge every decision of a record: exact values in hindsight, a bot's choice without"
EPILOG = f"""Position K is the decision that a hand's action K made: K counts the hand's actions
in the record from 1, as baloot replay numbers them in its messages ("action 13").
Plays and declarations are judged by exact values (the solver, all four hands known): the
hand's written score, the deciding team's minus the other's. Calls (bids, the trump,
doubles) are judged by the bot's sampled estimates. A loss of 2 is one game point handed to
the other team. Marks: ?! inaccuracy (loss >= {THRESHOLDS[Mark.INACCURACY]}), ? mistake
(>= {THRESHOLDS[Mark.MISTAKE]}), ?? blunder (>= {THRESHOLDS[Mark.BLUNDER]}); in a Gahwa hand
the values are the match (+1, -1) and any loss is a blunder.

examples:
  baloot analyze match.baloot                 every finished hand, as a report
  baloot analyze match.baloot --json          the JSON object of docs/analysis.md
  baloot analyze match.baloot --hand 2        one hand (finished or not)
  baloot analyze match.baloot --hand 2 --position 14   every option of one decision
  baloot analyze match.baloot --bot expert:fast        a quicker, rougher bot
  baloot analyze match.baloot --bot none      exact values only: quick, calls not judged

exit status: 0 done, 1 an illegal action in the record, 2 not a record or a bad option,
130 interrupted (Ctrl-C), 143 terminated."""

OK, ILLEGAL, BAD = 0, 1, 2
NO_BOT = "none"
_MARK_STYLE = {Mark.INACCURACY: "yellow", Mark.MISTAKE: "dark_orange", Mark.BLUNDER: "bold red"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``baloot analyze``."""
    parser.add_argument("file", help="a .baloot (TOML) or JSON record; - reads standard input")
    parser.add_argument("--hand", type=int, metavar="N", help="only hand N (from 1)")
    parser.add_argument(
        "--position",
        type=int,
        metavar="K",
        help="every option of the decision of the hand's action K (from 1); needs --hand "
        "unless the record has one hand",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--bot",
        default=DEFAULT_BOT,
        metavar="NAME",
        help=f"the bot that estimates without hindsight, with its budget as options (default "
        f"{DEFAULT_BOT}; expert:fast is about ten times quicker; expert:samples=20,deals=20; "
        f"{NO_BOT}: exact values only)",
    )
    parser.add_argument(
        "--seed", type=seed, default=0, help="seed of the bot's estimates (default 0)"
    )
    parser.add_argument(
        "--lang", choices=LANGUAGES, default="en", help="the language of the report (default en)"
    )


def run(args: argparse.Namespace) -> int:
    """Analyse and print; 130 or 143 when interrupted by a signal."""
    return until_interrupted(lambda: _run(args))


def bot_name(args: argparse.Namespace) -> str | None:
    """The bot asked for; None for ``--bot none``."""
    name: str = args.bot
    return None if name == NO_BOT else name


def _run(args: argparse.Namespace) -> int:
    for option in ("hand", "position"):
        value = getattr(args, option)
        if value is not None and value < 1:
            return _bad(f"--{option} must be at least 1")
    record = loads(read_record_text(args.file))  # a RecordError: exit 2, said by main
    judge = SolverAndBot(bot_name(args), args.seed)
    s = strings(args.lang)
    hand = args.hand
    try:
        if args.position is not None:
            if hand is None:
                if len(record.hands) != 1:
                    return _bad("--position needs --hand: the record has several hands")
                hand = 1
            point, decision = analyze_position(record, judge, hand, args.position)
            if args.json:
                return _print_json(_position_json(decision, judge))
            return _print(position_report(decision, point.hand, judge, s))
        with _progress() as progress:
            analysis = analyze_record(record, judge, hand=hand, progress=progress)
    except ReplayError as error:
        text = printable(str(error))
        Output().line(json.dumps(error.to_json()) if args.json else text)
        return ILLEGAL
    if args.json:
        return _print_json(analysis.to_json())
    return _print(report(analysis, s))


def _bad(message: str) -> int:
    print(f"baloot: {message}", file=sys.stderr)
    return BAD


@contextmanager
def _progress() -> Iterator[Callable[[int, int], None]]:
    """A progress bar on standard error, when it is a terminal: the decisions judged."""
    err = Console(stderr=True)
    with Progress(
        TextColumn("[bold]analysing"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    ) as progress:
        task = progress.add_task("analysing", total=None)

        def advance(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        yield advance


def _print_json(data: object) -> int:
    # ASCII escapes: what a record holds (player names) cannot reach the terminal raw.
    Output().line(json.dumps(data, ensure_ascii=True))
    return OK


def _print(renderable: RenderableType) -> int:
    try:
        Console().print(renderable)
    except BrokenPipeError:
        silence_stdout()
    return OK


def _position_json(decision: Decision, judge: SolverAndBot) -> dict[str, object]:
    """``--position --json``: the decision's object with what judged it."""
    return {
        "format": FORMAT,
        "bot": judge.bot,
        "seed": judge.seed,
        "thresholds": {mark.value: value for mark, value in THRESHOLDS.items()},
        "hand": decision.hand,
        "decision": decision.to_json(),
    }


# --------------------------------------------------------------------------- the report


def report(analysis: Analysis, s: Strings) -> RenderableType:
    """The whole report: each hand's decisions and summary, then the summary of all."""
    parts: list[RenderableType] = [_notes(analysis, s)]
    if not analysis.hands:
        parts.append(Text(s("analysis_no_hand")))
    for hand in analysis.hands:
        parts.append(Text(""))
        parts.extend(hand_report(hand, analysis, s))
    for number in analysis.in_progress:
        parts.append(Text(s("analysis_in_progress", number=number), style="dim"))
    if len(analysis.hands) > 1:
        parts.append(Text(""))
        parts.append(summary_table(analysis, analysis.decisions(), s("analysis_summary"), s))
    return Group(*parts)


def _notes(analysis: Analysis, s: Strings) -> Text:
    lines = [s("analysis_exact_note")]
    if analysis.bot is None:
        lines.append(s("analysis_no_bot_note"))
    else:
        lines.append(s("analysis_estimate_note", bot=printable(analysis.bot), seed=analysis.seed))
    marks = {mark.value: value for mark, value in THRESHOLDS.items()}
    lines.append(s("analysis_marks_note", **marks))
    return Text("\n".join(lines), style="dim")


def hand_report(hand: HandAnalysis, analysis: Analysis, s: Strings) -> list[RenderableType]:
    """One hand: its title, its decisions as a table, its summary by seat."""
    result = hand.result
    title = Text(
        s(
            "analysis_hand",
            number=hand.number,
            dealer=s.seat(result.dealer),
            outcome=s(f"outcome_{result.outcome.name}"),
        ),
        style="bold",
    )
    parts: list[RenderableType] = [title]
    if result.contract is not None and result.score is not None:
        line = contract_text(result.contract, s)
        ns, ew = result.score
        parts.append(Text(s("analysis_contract", contract=line.plain, NS=ns, EW=ew)))
    if hand.unit is Unit.MATCH:
        parts.append(Text(s("analysis_gahwa_note"), style="magenta"))
    if not hand.decisions:
        parts.append(Text(s("analysis_no_decision"), style="dim"))
    else:
        parts.append(decisions_table(hand.decisions, analysis.bot, s))
        parts.append(
            summary_table(
                analysis, hand.decisions, s("analysis_hand_summary", number=hand.number), s
            )
        )
    if hand.skipped:
        parts.append(Text(s("analysis_forced", count=hand.skipped), style="dim"))
    return parts


def decisions_table(decisions: tuple[Decision, ...], bot: str | None, s: Strings) -> Table:
    """A row per decision: position, seat, the action played and its value, the best and its
    value (= when it was played), the loss, the mark, the bot's choice (= the one played)."""
    table = Table(show_edge=False, pad_edge=False)
    table.add_column(s("analysis_col_position"), justify="right")
    table.add_column(s("analysis_col_seat"))
    table.add_column(s("analysis_col_played"))
    table.add_column(s("analysis_col_best"))
    table.add_column(s("analysis_col_loss"), justify="right")
    table.add_column(s("analysis_col_mark"))
    if bot is not None:
        table.add_column(s("analysis_col_bot", bot=printable(bot)))
    for d in decisions:
        mark = d.mark
        best = Text("=") if d.best == d.chosen else _with_value(d.best, d.best_value, d, s)
        row: list[RenderableType] = [
            str(d.position),
            s.seat(d.seat),
            _with_value(d.chosen, d.value, d, s),
            best,
            _value(d.loss, d, signed=False),
            _mark_text(mark),
        ]
        if bot is not None:
            expert = d.expert
            row.append(Text("=") if expert == d.chosen else action_text(expert, s))
        table.add_row(*row)
    return table


def _with_value(action: Action | None, value: float | None, d: Decision, s: Strings) -> Text:
    """``A♥ +16``: an action and its value."""
    text = action_text(action, s)
    text.append(" ")
    text.append_text(_value(value, d))
    return text


def summary_table(
    analysis: Analysis, decisions: tuple[Decision, ...] | list[Decision], title: str, s: Strings
) -> Table:
    """A row per seat (with its player's name), then for plays and for calls how many
    decisions, the average loss and each mark's count."""
    table = Table(title=title, title_justify="left", show_edge=False, pad_edge=False)
    table.add_column(s("analysis_col_seat"))
    groups = ["plays"] if analysis.bot is None else ["plays", "calls"]
    for group in groups:
        table.add_column(s(f"analysis_col_{group}"), justify="right")
        table.add_column(s("analysis_col_average"), justify="right")
        for mark in Mark:
            table.add_column(mark.symbol, justify="right")
    for seat, (plays, calls) in tally(decisions).items():
        name = printable(str(analysis.players.get(seat.name, "")))
        label = f"{s.seat(seat)} · {name}" if name and name != seat.name else s.seat(seat)
        row: list[RenderableType] = [Text(label)]  # a record's name: no markup
        for counted, estimated in ((plays, False), (calls, True))[: len(groups)]:
            row.extend(_tally_cells(counted, estimated))
        table.add_row(*row)
    return table


def _tally_cells(counted: Tally, estimated: bool) -> list[str]:
    average = counted.average_loss
    shown = "" if average is None else f"{'≈' if estimated else ''}{average:.2f}"
    return [str(counted.decisions), shown, *(str(counted.marks.get(m, 0)) for m in Mark)]


def action_text(action: Action | None, s: Strings) -> Text:
    """An action without its seat: a card with its words, a declaration, a call."""
    if action is None:
        return Text("—")
    if action.verb is Verb.PLAY:
        return play_text(action, s)
    return Text(call_label(action, s))


def _mark_text(mark: Mark | None, s: Strings | None = None) -> Text:
    """``?`` (with ``s``: ``? mistake``), in the mark's colour."""
    if mark is None:
        return Text("")
    words = mark.symbol if s is None else f"{mark.symbol} {s('mark_' + mark.value)}"
    return Text(words, style=_MARK_STYLE[mark])


def _value(value: float | None, decision: Decision, signed: bool = True) -> Text:
    """An exact value as a signed whole number, an estimate with ≈ and one decimal."""
    if value is None:
        return Text("")
    if decision.exact:
        return Text(f"{int(value):+d}" if signed and value else f"{int(value)}")
    return Text(f"≈{value:+.1f}" if signed else f"≈{value:.1f}", style="italic")


# --------------------------------------------------------------------------- one position


def position_report(
    decision: Decision, hand: Hand, judge: SolverAndBot, s: Strings
) -> RenderableType:
    """One decision: who holds what, the trick on the table, then every option by value."""
    seat = decision.seat
    parts: list[RenderableType] = [
        Text(
            s(
                "analysis_position",
                number=decision.hand,
                position=decision.position,
                seat=s.seat(seat),
                phase=s(f"phase_{decision.phase.name}"),
            ),
            style="bold",
        )
    ]
    if hand.contract is not None:
        parts.append(contract_text(hand.contract, s))
    for other in Seat:
        cards = " ".join(card.pretty for card in hand.hand(other))
        parts.append(Text(s("analysis_cards", seat=s.seat(other), cards=cards)))
    if trick := hand.current_trick:
        plays = "  ".join(f"{s.seat(who)} {card.pretty}" for who, card in trick)
        parts.append(Text(s("analysis_trick", plays=plays)))
    if decision.chosen is None:
        parts.append(Text(s("analysis_position_open")))
    else:
        chosen = action_text(decision.chosen, s).plain
        parts.append(Text(s("analysis_position_played", seat=s.seat(seat), action=chosen)))
    if decision.unit is Unit.MATCH:
        parts.append(Text(s("analysis_gahwa_note"), style="magenta"))
    parts.append(options_table(decision, judge.bot, s))
    return Group(*parts)


def options_table(decision: Decision, bot: str | None, s: Strings) -> Table:
    """Every option, the best first: its value, its loss and mark, the bot's estimate."""
    table = Table(show_edge=False, pad_edge=False)
    table.add_column(s("analysis_col_option"))
    table.add_column(s("analysis_col_value"), justify="right")
    table.add_column(s("analysis_col_loss"), justify="right")
    table.add_column(s("analysis_col_mark"))
    if bot is not None and decision.exact:
        table.add_column(s("analysis_col_estimate", bot=printable(bot)), justify="right")
    table.add_column("")
    top = decision.best_value
    ranked = sorted(
        decision.options, key=lambda o: -(o.value(decision.exact) or 0.0)
    )  # stable: the engine's order among equals
    for option in ranked:
        value = option.value(decision.exact)
        loss = None if value is None or top is None else top - value
        mark = None if loss is None else mark_of(loss, decision.unit)
        tags = []
        if option.action == decision.chosen:
            tags.append(s("analysis_tag_played"))
        if option.action == decision.best:
            tags.append(s("analysis_tag_best"))
        if bot is not None and option.action == decision.expert:
            tags.append(s("analysis_tag_bot", bot=printable(bot)))
        row: list[RenderableType] = [
            action_text(option.action, s),
            _value(value, decision),
            _value(loss, decision, signed=False),
            Text(
                "" if mark is None else mark.symbol, style="" if mark is None else _MARK_STYLE[mark]
            ),
        ]
        if bot is not None and decision.exact:
            estimate = option.estimate
            row.append(Text("" if estimate is None else f"≈{estimate:+.1f}", style="italic"))
        row.append(Text(", ".join(tags), style="bold" if tags else ""))
        table.add_row(*row)
    return table
