"""What ``baloot play`` draws: the table at a glance and the score sheet of a hand, with rich.

Everything is built from what the engine reports — a seat's :class:`~baloot.view.SeatView`
while a hand is played, the finished hand's :class:`~baloot.core.scoring.HandResult` for the
sheet (explained by :mod:`baloot.view.sheet`) — and worded by :mod:`baloot.words`. No rule is
worked out here: the tricks, the bidding rounds and the figures on the sheet are the engine's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from baloot.core.actions import Action, Verb
from baloot.core.cards import Card, CardSet, Suit, strength
from baloot.core.match import TARGET
from baloot.core.projects import Project
from baloot.core.rules import Rules
from baloot.core.scoring import HandResult
from baloot.core.seats import Seat, Team
from baloot.core.vocabulary import Contract, ContractKind, Level, Phase, Trick
from baloot.view.seat_view import SeatView
from baloot.view.sheet import SheetKey, SheetLine, explain
from baloot.words.sheet import sheet_text
from baloot.words.strings import Strings

RED_SUITS = (Suit.HEARTS, Suit.DIAMONDS)
#: Suits in the order a hand is shown: black and red alternate.
SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)


@dataclass(frozen=True)
class Seating:
    """Who sits where: the human's seat and a short label of every other player."""

    human: Seat
    bots: dict[Seat, str]

    def label(self, seat: Seat, s: Strings) -> str:
        """``you (S)``, ``partner N · heuristic``, ``W · random``."""
        if seat == self.human:
            return s("you_seat", seat=s.seat(seat))
        bot = self.bots.get(seat, "")
        if seat == self.human.partner:
            return s("partner_seat", seat=s.seat(seat), bot=bot)
        return s("bot_seat", seat=s.seat(seat), bot=bot)

    def name(self, seat: Seat, s: Strings) -> str:
        """``S (you)`` or ``W``: a seat in the lines of play."""
        if seat == self.human:
            return s("seat_you", seat=s.seat(seat))
        return s.seat(seat)

    def team_label(self, team: Team, s: Strings) -> str:
        """``NS (us)`` or ``EW (them)``."""
        return s("team_us" if team == self.human.team else "team_them", team=team.name)


# --------------------------------------------------------------------------- cards


def suit_style(suit: Suit) -> str:
    """Red for ♥ ♦, the terminal's own colour for ♠ ♣."""
    return "bold red" if suit in RED_SUITS else "bold"


def card_text(card: Card, dim: bool = False) -> Text:
    """A card as ``10♥`` in its suit's colour."""
    style = suit_style(card.suit) + (" dim" if dim else "")
    return Text(card.pretty, style=style)


def hand_order(cards: Iterable[Card], trump: Suit | None) -> list[Card]:
    """Cards grouped by suit (the trump first, then black and red alternating), each suit
    from its strongest card down in the contract (before a contract: the plain order)."""
    suits = list(SUIT_ORDER)
    if trump is not None:
        suits.remove(trump)
        suits.insert(0, trump)
    return sorted(cards, key=lambda c: (suits.index(c.suit), -strength(c, trump)))


def project_text(project: Project, s: Strings) -> Text:
    """``sira (Q♥ J♥ 10♥)``."""
    text = Text(s.project(project.kind) + " (")
    for k, card in enumerate(CardSet(project.mask)):
        if k:
            text.append(" ")
        text.append_text(card_text(card))
    text.append(")")
    return text


# --------------------------------------------------------------------------- calls and actions


def call_label(action: Action, s: Strings, round2: bool = False) -> str:
    """A call, a trump naming or a doubling step in the player's words."""
    verb = action.verb
    if verb is Verb.TRUMP:
        assert action.suit is not None
        return s("call_trump", suit=s.suit_with_symbol(action.suit))
    if verb is Verb.HOKUM and round2:
        return s("call_hokum2")
    if verb in (Verb.DOUBLE, Verb.FOUR) and action.locked is not None:
        return s(f"call_{verb.value}_{'locked' if action.locked else 'open'}")
    if verb is Verb.DECLARE:
        return s("declares", projects=claims_text(action, s))
    return s(f"call_{verb.value}")


def claims_text(action: Action, s: Strings) -> str:
    """The project names of a ``declare``."""
    return s.joiner.join(s.project(c.kind) for c in action.claims)


def play_text(action: Action, s: Strings) -> Text:
    """``10♦`` with ``· Ekka`` / ``· Baloot!`` when announced."""
    assert action.card is not None
    text = card_text(action.card)
    if action.ekka:
        text.append(" · " + s("ekka"), style="bold")
    if action.baloot:
        text.append(" · " + s("baloot_word"), style="bold")
    return text


def contract_text(contract: Contract, s: Strings) -> Text:
    """``Hokum ♥ hearts · declarer W (EW) · doubled ×2 · locked``."""
    if contract.trump is not None:
        kind = s("hokum_in", suit=s.suit_with_symbol(contract.trump))
    else:
        kind = s("call_sun")
    text = Text(kind, style="bold")
    declarer = contract.declarer
    text.append(" · " + s("declarer_is", seat=s.seat(declarer), team=declarer.team.name))
    level = contract.level
    if level != 1:
        text.append(" · ")
        text.append(s(f"level_{level.json}"), style="bold magenta")
        if contract.trump is not None and level is not Level.GAHWA:
            text.append(" · " + s("locked" if contract.locked else "open"))
    return text


@dataclass(frozen=True)
class TableInfo:
    """What the table shows besides the seat's view."""

    number: int
    totals: tuple[int, int]
    seed: int
    seating: Seating
    rules: str
    choices: dict[Card, int] | None = None


def render_table(view: SeatView, info: TableInfo, s: Strings) -> RenderableType:
    """The table at a glance from the human's seat: calls, contract, trick, score, hand."""
    seating = info.seating
    rows: list[RenderableType] = []

    score = Text()
    score.append(s("match_score") + "  ", style="bold")
    for team in Team:
        if team is not Team.NS:
            score.append("   ")
        score.append(seating.team_label(team, s) + " ")
        score.append(str(info.totals[team]), style="bold cyan")
    score.append("   " + s("to_target", target=TARGET), style="dim")
    score.append("   " + s("rules_header", rules=info.rules), style="dim")
    rows.append(score)

    contract = view.contract
    line = Text()
    if contract is None or view.phase.is_bidding:
        line.append(s("phase_label") + "  ", style="bold")
        line.append(s(f"phase_{view.phase.name}"))
        line.append("   " + s("exposed_card") + " ")
        line.append_text(card_text(view.exposed))
    else:
        line.append(s("contract_label") + "  ", style="bold")
        line.append_text(contract_text(contract, s))
        if view.taker is not None:
            line.append("   " + s("took_card", seat=s.seat(view.taker)) + " ")
            line.append_text(card_text(view.exposed))
    rows.append(line)

    rows.append(_calls_line(s("calls_label"), view.bidding, s, view.round_two_start))
    if view.doubling:
        rows.append(_calls_line(s("doubling_label"), view.doubling, s))

    rows.append(Text())
    rows.append(_trick_grid(view, info, s))
    rows.append(Text())

    if contract is not None and view.phase is not Phase.DOUBLING:
        tricks = Text(s("tricks_label") + "  ", style="bold")
        for team in Team:
            if team is not Team.NS:
                tricks.append("   ")
            tricks.append(
                s(
                    "tricks_points",
                    team=seating.team_label(team, s),
                    tricks=view.tricks_won[team],
                    points=view.card_points[team],
                )
            )
        rows.append(tricks)
        projects = _projects_line(view, s)
        if projects is not None:
            rows.append(projects)
    # The answer help stays on every redraw: the opening lines scroll away when bots bid first.
    rows.append(Text(s("intro_help") + " " + s("commands_hint") + ".", style="dim"))

    title = s("table_title", number=info.number, dealer=s.seat(view.dealer), seed=info.seed)
    panel = Panel(Group(*rows), title=title, title_align="left", border_style="blue")
    hand_line = Text(s("your_cards") + "  ", style="bold")
    hand_line.append_text(_hand_with_choices(view.cards, view.trump, info.choices))
    return Group(panel, hand_line)


def trick_text(trick: Trick, s: Strings) -> Text:
    """The cards of a trick in playing order, with their Ekka and Baloot words."""
    text = Text()
    for k, play in enumerate(trick.plays):
        if k:
            text.append(", ")
        text.append(s.seat(play.seat) + " ")
        text.append_text(play_text(play, s))
    return text


def _calls_line(
    label: str, actions: Sequence[Action], s: Strings, round2_from: int | None = None
) -> Text:
    text = Text(label + "  ", style="bold")
    if not actions:
        text.append(s("no_calls_yet"), style="dim")
    for k, action in enumerate(actions):
        if k:
            text.append("  ")
        if round2_from is not None and k == round2_from:
            text.append("| " + s("round2_short") + "  ", style="dim")
        round2 = round2_from is not None and k >= round2_from
        word = call_label(action, s, round2=round2)
        style = "dim" if action.verb is Verb.PASS else "bold yellow"
        text.append(s.seat(action.seat) + " ", style="cyan")
        text.append(word, style=style)
    return text


def _trick_grid(view: SeatView, info: TableInfo, s: Strings) -> RenderableType:
    seating = info.seating
    me = seating.human
    top, left, right = me.partner, me.after(3), me.next
    cards: dict[Seat, Text] = {}
    centre = Text(justify="center")
    current = view.tricks[-1] if view.tricks else None
    if current is not None and current.winner is None:
        for play in current.plays:
            cards[play.seat] = play_text(play, s)
        centre.append(s("trick_of", number=len(view.tricks)), style="dim")
    elif current is not None:
        # The last trick stays on the table until the next lead.
        for play in current.plays:
            text = play_text(play, s)
            if play.seat != current.winner:
                text.stylize("dim")
            cards[play.seat] = text
        assert current.winner is not None
        centre.append(
            s("last_trick_to", number=len(view.tricks), seat=s.seat(current.winner)),
            style="green",
        )
    elif view.phase.is_bidding:
        centre.append(s("exposed_card") + "\n", style="dim")
        centre.append_text(card_text(view.exposed))
    elif view.phase is Phase.PLAYING:
        centre.append(s("trick_of", number=1), style="dim")

    def cell(seat: Seat) -> Text:
        text = Text(justify="center")
        text.append(seating.label(seat, s), style="bold" if seat == me else "")
        marks = []
        if seat == view.dealer:
            marks.append(s("dealer_mark"))
        if view.contract is not None and seat == view.contract.declarer:
            marks.append(s("declarer_mark"))
        if seat == view.to_act:
            marks.append(s("to_act_mark"))
        text.append("\n" + " · ".join(marks), style="dim")
        declared = view.declared[seat]
        if declared:
            text.append("\n" + s.joiner.join(s.project(k) for k in declared), style="magenta")
        text.append("\n")
        text.append_text(cards.get(seat, Text("·", style="dim")))
        return text

    grid = Table.grid(expand=True)
    for _ in range(3):
        grid.add_column(justify="center", ratio=1)
    grid.add_row(Text(), cell(top), Text())
    grid.add_row(cell(left), centre, cell(right))
    grid.add_row(Text(), cell(me), Text())
    return grid


def _projects_line(view: SeatView, s: Strings) -> Text | None:
    if view.shown:
        text = Text(s("shown_label") + "  ", style="bold")
        for k, shown in enumerate(view.shown):
            if k:
                text.append("; ")
            text.append(s.seat(shown.seat) + " ", style="cyan")
            text.append_text(project_text(shown.project, s))
        return text
    if any(view.declared):
        text = Text(s("declared_label") + "  ", style="bold")
        first = True
        for seat in Seat:
            kinds = view.declared[seat]
            if not kinds:
                continue
            if not first:
                text.append("; ")
            first = False
            text.append(s.seat(seat) + " ", style="cyan")
            text.append(s.joiner.join(s.project(k) for k in kinds), style="magenta")
        return text
    return None


def _hand_with_choices(cards: CardSet, trump: Suit | None, choices: dict[Card, int] | None) -> Text:
    text = Text()
    previous: Suit | None = None
    for card in hand_order(cards, trump):
        if text:
            text.append("   " if card.suit != previous else " ")
        previous = card.suit
        if choices is None:
            text.append_text(card_text(card))
        elif card in choices:
            text.append(f"{choices[card]})", style="bold green")
            text.append_text(card_text(card))
        else:
            text.append_text(card_text(card, dim=True))
    return text


# --------------------------------------------------------------------------- the score sheet


def render_sheet(
    result: HandResult,
    rules: Rules,
    number: int,
    totals: tuple[int, int],
    seating: Seating,
    s: Strings,
) -> RenderableType:
    """The score sheet of a finished hand: a table of the figures, then every line of the
    sheet model (:func:`baloot.view.sheet.explain`) as a note, worded by
    :func:`baloot.words.sheet.sheet_text` like the sheet of ``baloot replay``."""
    title = s("sheet_title", number=number)
    lines = explain(result, rules)
    by_key: dict[SheetKey, list[SheetLine]] = {}
    for line in lines:
        by_key.setdefault(line.key, []).append(line)
    totals_text = s(
        "totals_line",
        ns=totals[0],
        ew=totals[1],
        us=seating.team_label(Team.NS, s),
        them=seating.team_label(Team.EW, s),
    )
    if SheetKey.DECISION not in by_key:
        body = Group(
            *(Text(sheet_text(line, s), style="bold") for line in lines), Text(totals_text)
        )
        return Panel(body, title=title, title_align="left", border_style="yellow")

    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column("")
    for team in Team:
        table.add_column(seating.team_label(team, s), justify="right")

    def row(label: str, values: tuple[object, object], style: str = "") -> None:
        table.add_row(label, str(values[0]), str(values[1]), style=style)

    def pair(line: SheetLine) -> tuple[object, object]:
        return line.params["NS"], line.params["EW"]

    def per_team(key: SheetKey, name: str) -> tuple[object, object]:
        points = {team.name: 0 for team in Team}
        for line in by_key.get(key, []):
            value = line.params[name]
            assert isinstance(value, int)
            points[str(line.params["team"])] += value
        return points["NS"], points["EW"]

    row(s("row_tricks"), pair(by_key[SheetKey.TRICKS][0]))
    row(s("row_card_points"), pair(by_key[SheetKey.CARD_POINTS][0]))
    kaboot = SheetKey.KABOOT in by_key
    if not kaboot:
        counting = by_key[SheetKey.COUNTING_TEAM][0].params
        rounded = {
            counting["team"]: counting["rounded"],
            counting["other"]: counting["other_rounded"],
        }
        row(s("row_card_game_points"), (rounded["NS"], rounded["EW"]))
        row(s("row_projects"), per_team(SheetKey.PROJECTS, "points"))
        if by_key[SheetKey.CONTRACT][0].params["kind"] == ContractKind.HOKUM.value:
            row(s("row_baloot"), per_team(SheetKey.BALOOT, "points"))
        row(s("row_game_points"), pair(by_key[SheetKey.GAME_POINTS][0]), style="bold")
    row(s("row_written"), pair(by_key[SheetKey.WRITTEN][0]), style="bold green")
    row(s("row_totals"), totals, style="bold cyan")

    in_table = (SheetKey.CONTRACT, SheetKey.TRICKS, SheetKey.GAME_POINTS)
    body_lines: list[RenderableType] = [
        Text(sheet_text(line, s), style="bold") for line in by_key.get(SheetKey.CONTRACT, [])
    ]
    body_lines.extend([table, Text()])
    body_lines.extend(
        Text("• " + sheet_text(line, s)) for line in lines if line.key not in in_table
    )
    return Panel(Group(*body_lines), title=title, title_align="left", border_style="green")
