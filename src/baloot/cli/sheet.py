"""The score sheet in words, and the readable replay of ``baloot replay``.

:func:`sheet_text` words one line of the sheet model (:mod:`baloot.view.sheet`) from the
templates of :mod:`baloot.cli.i18n`; both the plain replay below and the rich sheet of
``baloot play`` (:func:`baloot.cli.render.render_sheet`) use it, so the two cannot disagree.

>>> from baloot.view.sheet import SheetKey, SheetLine
>>> from .i18n import strings
>>> line = SheetLine(SheetKey.COUNTING_TEAM, {"team": "EW", "points": 26, "rounded": 3,
...                  "rounding": "hokum", "other": "NS", "other_rounded": 13})
>>> print(sheet_text(line, strings("en")))  # doctest: +NORMALIZE_WHITESPACE
counting team EW: 26 card points → 3 (Hokum: whole tens, 6 or more rounds up, a 5 rounds
down); NS gets 13
>>> print(sheet_text(line, strings("ar")))
الفريق المحسوب EW: 26 بنط ← 3 (الحكم: العشرات، 6 فأكثر تُجبر للأعلى، و5 تُكسر للأسفل)؛ ولـNS 13

The replay keeps the record's notation (seat letters, actions as written) for the deal, the
calls and the tricks, in both languages, and words the sheet below them.
"""

from __future__ import annotations

import json

from baloot.core.actions import Action, Verb
from baloot.core.cards import Card, CardSet, Suit
from baloot.core.hand import Hand
from baloot.core.projects import ProjectKind
from baloot.core.scoring import HandResult
from baloot.core.seats import Seat
from baloot.core.vocabulary import Outcome, Trick
from baloot.records.replay import Replay
from baloot.view.sheet import Param, SheetKey, SheetLine, explain

from .i18n import Strings


def sheet_text(line: SheetLine, s: Strings) -> str:
    """One line of the sheet in the words of ``s``."""
    p = line.params
    key = line.key
    if key is SheetKey.ANNULLED:
        seat = p["seat"]
        return s(f"sheet_annulled_{p['reason']}", seat=_seat(seat, s) if seat else "")
    if key is SheetKey.CONTRACT:
        return _contract(line, s)
    if key is SheetKey.COUNTING_TEAM:
        return s("sheet_counting_team", **{**p, "rounding": s(f"rounding_{p['rounding']}")})
    if key is SheetKey.KABOOT:
        return s("sheet_kaboot", team=p["team"], projects=s(f"kaboot_projects_{p['projects']}"))
    if key is SheetKey.PROJECTS:
        shown = s("list_sep").join(
            s(
                "sheet_project",
                seat=_seat(seat, s),
                project=s.project(ProjectKind.parse(kind)),
                cards=" ".join(Card.parse(card).pretty for card in cards.split()),
            )
            for seat, kind, cards in zip(
                _words(p["seats"]), _words(p["kinds"]), _words(p["cards"]), strict=True
            )
        )
        return s("sheet_projects", team=p["team"], shown=shown, points=p["points"])
    if key is SheetKey.DECLARED_NOT_SCORED:
        kinds = s.joiner.join(s.project(ProjectKind.parse(kind)) for kind in _words(p["kinds"]))
        return s("sheet_declared_not_scored", seat=_seat(p["seat"], s), projects=kinds)
    if key is SheetKey.BALOOT:
        return s(f"sheet_baloot_{p['fate']}", **{**p, "seat": _seat(p["seat"], s)})
    if key is SheetKey.DOUBLING:
        return s("sheet_doubling", level=s(f"level_{p['level']}"), factor=p["factor"])
    if key is SheetKey.DECISION:
        decided = s(f"decided_{p['decided_by']}", digit=p["tie_digit"])
        outcome = "made" if p["made"] else "failed"
        return s(
            f"sheet_decision_{outcome}", team=p["declarers"], winner=p["winner"], decided=decided
        )
    if key is SheetKey.WRITTEN:
        return s("sheet_written", NS=p["NS"], EW=p["EW"], how=s(f"written_{p['how']}"))
    # tricks, card_points, no_projects, game_points, gahwa: the parameters as they are
    return s(f"sheet_{key.value}", **p)


def _contract(line: SheetLine, s: Strings) -> str:
    p = line.params
    trump = p["trump"]
    if isinstance(trump, str):
        contract = s("hokum_in", suit=s.suit_with_symbol(Suit.parse(trump)))
    else:
        contract = s("call_sun")
    level = s(f"level_{p['level']}")
    if trump is not None and p["level"] not in (1, "gahwa"):
        level += s("list_sep") + s("locked" if p["locked"] else "open")
    return s(
        "sheet_contract",
        contract=contract,
        seat=_seat(p["declarer"], s),
        team=p["team"],
        level=level,
    )


def _seat(value: Param, s: Strings) -> str:
    return s.seat(Seat[str(value)])


def _words(value: Param) -> tuple[str, ...]:
    assert isinstance(value, tuple)
    return value


# --------------------------------------------------------------------------- baloot replay


def render_replay(result: Replay, s: Strings) -> str:
    """The whole replay: the rules, every hand with its sheet, the running and final totals."""
    rules = result.record.rules
    lines = [s("replay_rules", name=rules.name() or s("replay_custom"))]
    for flag, value in rules.changes().items():
        lines.append(f"  {flag} = {json.dumps(value)}")
    running = result.record.score_before or (0, 0)
    for number, (hand, res) in enumerate(zip(result.hands, result.results, strict=True), 1):
        lines.append("")
        lines.extend(render_hand(number, hand, res, s))
        if res.score is not None:
            running = (running[0] + res.score[0], running[1] + res.score[1])
            lines.append("  " + s("replay_totals", NS=running[0], EW=running[1]))
    lines.append("")
    winner = s("replay_no_winner") if result.winner is None else result.winner.name
    lines.append(s("replay_end", NS=result.totals[0], EW=result.totals[1], winner=winner))
    return "\n".join(lines)


def render_hand(number: int, hand: Hand, result: HandResult, s: Strings) -> list[str]:
    """The lines of one hand: the deal, the calls and the tricks, then its sheet."""
    lines = [
        s(
            "replay_hand",
            number=number,
            dealer=hand.dealer.name,
            outcome=s(f"outcome_{result.outcome.name}"),
        )
    ]
    body = [s("replay_exposed", card=hand.exposed.pretty)]
    dealt = hand.contract is not None
    for seat in Seat:
        held = hand.full_hand(seat) if dealt else hand.hand(seat)
        label = "replay_dealt" if dealt else "replay_first_five"
        body.append(s(label, seat=seat.name, cards=_cards(held)))
    if bidding := hand.bidding():
        body.append(s("replay_bidding", calls=_calls(bidding)))
    if doubling := hand.doubling():
        body.append(s("replay_doubling", calls=_calls(doubling)))
    declarations = [
        f"{a.seat.name} {' '.join(str(c) for c in a.claims)}"
        for a in hand.actions
        if a.verb is Verb.DECLARE
    ]
    if declarations:
        body.append(s("replay_declared", declarations=", ".join(declarations)))
    for trick_number, trick in enumerate(hand.tricks(), 1):
        body.append(_trick(trick_number, trick, s))
    body.extend(sheet_text(line, s) for line in explain(result, hand.rules))
    if result.outcome is Outcome.IN_PROGRESS and hand.to_act is not None:
        legal = ", ".join(sorted(str(a) for a in hand.legal_actions()))
        body.append(s("replay_to_act", seat=hand.to_act.name, legal=legal))
    lines.extend("  " + line for line in body)
    return lines


def _cards(cards: CardSet) -> str:
    return " ".join(c.pretty for c in cards)


def _calls(actions: tuple[Action, ...]) -> str:
    return ", ".join(str(a) for a in actions)


def _trick(number: int, trick: Trick, s: Strings) -> str:
    plays = ", ".join(
        f"{play.seat.name} {card.pretty}{' ' + word if word else ''}"
        for play, card, word in zip(trick.plays, trick.cards, trick.words, strict=True)
    )
    if trick.winner is None:
        return s("replay_trick_in_progress", number=number, plays=plays)
    return s(
        "replay_trick", number=number, plays=plays, winner=trick.winner.name, points=trick.points
    )
