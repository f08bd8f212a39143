"""The score sheet in words: one line of :mod:`baloot.view.sheet` in English or Arabic.

:func:`sheet_text` words one line of the sheet model from the templates of
:mod:`baloot.words.strings`; the plain replay of ``baloot replay``
(:func:`baloot.cli.replay_text.render_replay`), the rich sheet of ``baloot play``
(:func:`baloot.cli.render.render_sheet`) and a browser's sheet (:func:`sheet_texts`, from the
JSON of a ``hand-over`` message) all use it, so they cannot disagree.

:func:`sheet_texts` takes the sheet as the ``hand-over`` message writes it
(:func:`baloot.view.sheet.to_json`) and checks it first (:func:`baloot.view.sheet.from_json`):
what comes back from a browser is refused with a one-line :class:`ValueError`.

>>> from baloot.view.sheet import SheetKey, SheetLine
>>> from baloot.words.strings import strings
>>> line = SheetLine(SheetKey.COUNTING_TEAM, {"team": "EW", "points": 26, "rounded": 3,
...                  "rounding": "hokum", "other": "NS", "other_rounded": 13})
>>> print(sheet_text(line, strings("en")))  # doctest: +NORMALIZE_WHITESPACE
counting team EW: 26 card points → 3 (Hokum: whole tens, 6 or more rounds up, a 5 rounds
down); NS gets 13
>>> print(sheet_text(line, strings("ar")))  # doctest: +NORMALIZE_WHITESPACE
الفريق المحسوب شرق-غرب: 26 بنط ← 3 (الحكم: العشرات، 6 فأكثر تُجبر للأعلى، و5 تُكسر
للأسفل)؛ وشمال-جنوب: 13
"""

from __future__ import annotations

from typing import Any

from baloot.core.cards import Card, Suit
from baloot.core.projects import ProjectKind
from baloot.core.seats import Seat, Team
from baloot.view.sheet import Param, SheetKey, SheetLine, from_json, words_of

from .strings import Strings, language, strings


def sheet_texts(lines: list[dict[str, Any]], lang: str, us: Team | None = None) -> list[str]:
    """The lines of a sheet in its JSON form (``[{"key": ..., "params": {...}}, ...]``) worded
    in ``lang``, for a player of team ``us`` if given (the teams then "us" and "them").
    Unknown keys or languages and missing, extra or wrong parameters are a
    :class:`ValueError` with a one-line reason.

    >>> sheet = [{"key": "tricks", "params": {"NS": 6, "EW": 2}},
    ...          {"key": "written", "params": {"NS": 15, "EW": 3, "how": "made"}}]
    >>> sheet_texts(sheet, "en")
    ['tricks: NS 6, EW 2', 'score: NS 15, EW 3 — each team writes its own game points']
    >>> sheet_texts(sheet, "ar")[0]
    'الأكلات: شمال-جنوب 6، شرق-غرب 2'
    >>> sheet_texts(sheet, "ar", us=Team.EW)[0]
    'الأكلات: لهم 6، لنا 2'
    >>> sheet_texts([{"key": "tricks", "params": {"NS": 6}}], "en")
    Traceback (most recent call last):
    ...
    ValueError: sheet line 1: tricks: missing params EW
    """
    s = strings(language(lang), us)
    return [sheet_text(line, s) for line in from_json(lines)]


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
                words_of(p["seats"]), words_of(p["kinds"]), words_of(p["cards"]), strict=True
            )
        )
        return s("sheet_projects", team=p["team"], shown=shown, points=p["points"])
    if key is SheetKey.DECLARED_NOT_SCORED:
        kinds = s.joiner.join(s.project(ProjectKind.parse(kind)) for kind in words_of(p["kinds"]))
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
