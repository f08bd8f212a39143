"""The report of ``baloot analyze``: a record's judged decisions as tables, in the reader's
language (:mod:`baloot.words.analysis` words it), and the options of one decision."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from baloot.analysis import (
    THRESHOLDS,
    Analysis,
    Decision,
    HandAnalysis,
    Mark,
    SolverAndBot,
    Tally,
    Unit,
    mark_of,
)
from baloot.analysis.model import tally
from baloot.core.actions import Action, Verb
from baloot.core.hand import Hand
from baloot.core.seats import Seat
from baloot.words.strings import Strings

from .files import printable
from .render import call_label, contract_text, play_text

_MARK_STYLE = {Mark.INACCURACY: "yellow", Mark.MISTAKE: "dark_orange", Mark.BLUNDER: "bold red"}


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
        if analysis.bot is not None and any(by_equity(d) for d in hand.decisions):
            note = s("analysis_equity_note", bot=printable(analysis.bot))
            parts.append(Text(note, style="dim"))
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
            choice = Text("=") if expert == d.chosen else action_text(expert, s)
            if by_equity(d):
                choice.append(" †")
            row.append(choice)
        table.add_row(*row)
    return table


def by_equity(decision: Decision) -> bool:
    """True when the bot's call is not the call of best estimate: it chose by the chance to
    win the match, with confidence, which the report explains under the table."""
    expert = decision.expert
    return not decision.exact and expert is not None and expert != decision.best


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
        row.append(Text(s("list_sep").join(tags), style="bold" if tags else ""))
        table.add_row(*row)
    return table
