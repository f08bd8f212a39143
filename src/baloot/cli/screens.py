"""The terminal's other screens: the running score sheet, a trick paged back, event lines.

>>> from baloot.words.strings import strings
>>> from baloot.core.actions import Action
>>> action_line(Action.parse("N declare sira:Td9d8d"), "N", strings("en")).plain
'N declares sira'
"""

from __future__ import annotations

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from baloot.core.actions import Action, Verb
from baloot.core.match import TARGET, Match
from baloot.core.vocabulary import ContractKind, Level, Trick
from baloot.words.strings import Strings

from .render import Seating, call_label, claims_text, play_text, trick_text


def action_line(action: Action, who: str, s: Strings, round2: bool = False) -> Text:
    """One action as the table heard it: ``W: Hokum``, ``S plays 10♦ · Ekka``."""
    if action.verb is Verb.PLAY:
        line = Text(s("event_play", seat=who) + " ")
        line.append_text(play_text(action, s))
        return line
    if action.verb is Verb.DECLARE:
        return Text(s("event_declare", seat=who, projects=claims_text(action, s)), "magenta")
    return Text(s("event_call", seat=who, call=call_label(action, s, round2=round2)))


def trick_line(trick: Trick, number: int, winner: str, s: Strings) -> Text:
    """A completed trick and who took it (trick 8 names its winner too)."""
    line = Text(s("trick_number", number=number) + ": ", style="bold")
    line.append_text(trick_text(trick, s))
    line.append(" → " + s("trick_to", seat=winner), style="green")
    if number == 8:
        line.append(" · " + s("last_trick_done"), style="green")
    return line


def trick_page(trick: Trick, number: int, winner: str, s: Strings) -> RenderableType:
    """One earlier trick of the hand, paged back with ``l``."""
    text = Text(s("trick_page", number=number) + "\n", style="bold")
    text.append_text(trick_text(trick, s))
    text.append("\n" + s("trick_winner", seat=winner, points=trick.points), style="green")
    return text


def running_sheet(match: Match, seating: Seating, s: Strings) -> RenderableType:
    """The match hand by hand: لنا / لهم from the human's side, and the running totals."""
    us = seating.human.team
    table = Table(title=s("running_title", target=TARGET), title_justify="left")
    table.add_column(s("running_hand"), justify="right")
    table.add_column(s("running_contract"))
    table.add_column(s("running_us"), justify="right")
    table.add_column(s("running_them"), justify="right")
    table.add_column(s("running_totals"), justify="right")
    after = match.totals_after
    for number, hand in enumerate(match.hands, 1):
        result = match.results[number - 1] if number <= len(match.results) else None
        totals = after[number - 1] if result is not None else match.totals
        shown = f"{totals[us]} – {totals[us.other]}"
        contract = hand.contract
        if contract is None:
            what = Text(s("running_annulled") if hand.is_over else s("running_in_play"))
        else:
            what = Text(s.seat(contract.declarer) + " ")
            if contract.kind is ContractKind.HOKUM and contract.trump is not None:
                what.append(s("call_hokum") + " ")
                what.append(contract.trump.symbol)
            else:
                what.append(s("call_sun"))
            if contract.level is Level.GAHWA:
                what.append(" · " + s("call_gahwa"))
            elif contract.level > 1:
                what.append(f" ×{int(contract.level)}")
        if result is None or result.score is None:
            table.add_row(str(number), what, "", "", shown)
            continue
        ours, theirs = result.score[us], result.score[us.other]
        table.add_row(str(number), what, str(ours), str(theirs), shown)
    return table
