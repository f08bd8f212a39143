"""The score sheet as data: why a hand scored what it did, one keyed line at a time.

:func:`explain` turns a :class:`~baloot.core.scoring.HandResult` into :class:`SheetLine`
values, each a :class:`SheetKey` and its parameters; interfaces word the lines themselves
(``baloot replay`` and ``baloot play`` in English or Arabic, a browser in its own words).
Every figure is the engine's: nothing here re-decides a rule (the rounding, the winner, what
each team writes and what becomes of the Baloot are read from the result's
:class:`~baloot.core.scoring.HandScore`). :func:`to_json` gives the ``sheet`` of the
``hand-over`` message of ``docs/seat-view.md``: ``[{"key": ..., "params": {...}}, ...]``;
:func:`from_json` reads it back, every key and parameter checked against the table below
(:data:`PARAMS`), for a sheet that comes back from a browser.

This is a wire format: the keys and their parameters below are stable. Seats are letters
(``N W S E``), teams ``NS`` / ``EW``, suits letters (``s h d c``), projects their record words
(``sira``, ``fifty``, ``hundred``, ``four-hundred``), cards their texts (``Qh``, ``Td``);
``[...]`` is a list. The lines come in the order of the table; a line whose condition does not
hold is left out.

=======================  ======================================================================
key                      params (when)
=======================  ======================================================================
``annulled``             ``reason``: ``"passes"`` or ``"kawesh"``; ``seat``: the Kawesh caller
                         or null. The only line of an annulled hand.
``contract``             ``kind``: ``"hokum"``/``"sun"``; ``trump``: suit letter or null;
                         ``declarer``: seat; ``team``: the declarers; ``level``: 1–4 or
                         ``"gahwa"`` (as the summary JSON); ``locked``: bool. (Once the bidding
                         is over.)
``tricks``               ``NS``, ``EW``: tricks taken.
``card_points``          ``NS``, ``EW``: card points (last trick's 10 included); ``total``.
``counting_team``        ``team``: the counting team (R12.3); ``points``: its card points;
                         ``rounded``: its card game points; ``rounding``: ``"hokum"``,
                         ``"sun"`` or ``"hokum-pair"`` (R12.4, #30); ``other``: the other
                         team; ``other_rounded``: its card game points. (Not in Al-kaboot.)
``kaboot``               ``team``: took all eight tricks (R12.8); ``projects``: the
                         ``kaboot_projects`` flag (``"own_scored"``, ``"all"``, ``"none"``).
                         (Instead of ``counting_team``.)
``projects``             ``team``: the team whose projects were shown and scored (R10.5);
                         ``seats``, ``kinds``: [seat], [project word], one per project;
                         ``cards``: [cards of each project, space-separated texts];
                         ``points``: their base game points. (One line per such team.)
``declared_not_scored``  ``seat``; ``team``; ``kinds``: [project word]: a declaration of the
                         team that lost the comparison. (One line per such seat.)
``no_projects``          no params. (Nobody declared or showed a project.)
``baloot``               ``seat``: the holder; ``team``: its team; ``points``: the Baloot
                         credited to it (2); ``fate``: ``"kept"`` (its team writes it),
                         ``"transferred"`` (the other team writes it) or ``"lost"`` (nobody
                         does); ``written_by``: that team or null; ``written``: the points it
                         writes (R12.7, R12.8, #34). (When an unblocked Baloot was held.)
``game_points``          ``NS``, ``EW``: card game points + projects + Baloot (R12.5). (Not in
                         Al-kaboot.)
``doubling``             ``level``: 2–4; ``factor``: what the scored projects are multiplied
                         by (#31). (A doubled hand.)
``gahwa``                ``team``: won the hand and with it the match (R12.7 d).
``decision``             ``winner``; ``declarers``; ``made``: bool; ``decided_by``:
                         ``"game-points"``, ``"tie-digit"``, ``"last-caller-loses"``,
                         ``"raw-points"``, ``"raw-points-tie"`` or ``"kaboot"``;
                         ``tie_digit``: the deciding last digit of the counting team's card
                         points, or null.
``written``              ``NS``, ``EW``: what each team writes (the hand's ``score``);
                         ``how``: ``"made"``, ``"failed"``, ``"doubled"``, ``"kaboot"`` or
                         ``"gahwa"`` (nothing is written, the match is decided).
=======================  ======================================================================

A hand still in progress has only ``contract`` (once known), ``tricks`` and ``card_points``.

The example hand of ``docs/records.md``: S takes Hokum in diamonds, N shows a Sira.

>>> from baloot.core.hand import Hand
>>> hand = Hand.from_deck("9c 8d Th 9h Jc 8s Qs Js As 7d 8h Td Kc Qh Kd 7s Qd "
...                       "Qc Ks Jh Jd Ad Kh Ah Ts Ac 9s 7c 8c Tc 9d 7h", dealer="E")
>>> for action in ("N pass; W pass; S hokum; E pass; N pass; W pass; S pass; W pass; E pass; "
...                "N declare sira; N play 8d; W play Kd; S play Jd; E play 9d; S play Qd; "
...                "E play Td; N play Ad; W play Jc; N play 9c; W play Ac; S play 8c; "
...                "E play Tc; W play Ts; S play As; E play Ks; N play Kc; S play Js; "
...                "E play 7d; N play Qh; W play 7s; E play 8h; N play Th; W play 9h; "
...                "S play 7c; N play Kh; W play 8s; S play Qs; E play Jh; N play Ah; "
...                "W play 9s; S play Qc; E play 7h").split("; "):
...     _ = hand.apply(action)
>>> lines = explain(hand.result(), hand.rules)
>>> [line.key.value for line in lines]  # doctest: +NORMALIZE_WHITESPACE
['contract', 'tricks', 'card_points', 'counting_team', 'projects', 'game_points',
 'decision', 'written']
>>> lines[3]  # doctest: +NORMALIZE_WHITESPACE
SheetLine(key=<SheetKey.COUNTING_TEAM: 'counting_team'>, params={'team': 'EW', 'points': 26,
 'rounded': 3, 'rounding': 'hokum', 'other': 'NS', 'other_rounded': 13})
>>> for line in to_json(lines):
...     print(line)
{'key': 'contract', 'params': {'kind': 'hokum', 'trump': 'd', 'declarer': 'S', 'team': 'NS', \
'level': 1, 'locked': False}}
{'key': 'tricks', 'params': {'NS': 6, 'EW': 2}}
{'key': 'card_points', 'params': {'NS': 136, 'EW': 26, 'total': 162}}
{'key': 'counting_team', 'params': {'team': 'EW', 'points': 26, 'rounded': 3, \
'rounding': 'hokum', 'other': 'NS', 'other_rounded': 13}}
{'key': 'projects', 'params': {'team': 'NS', 'seats': ['N'], 'kinds': ['sira'], \
'cards': ['Ah Kh Qh'], 'points': 2}}
{'key': 'game_points', 'params': {'NS': 15, 'EW': 3}}
{'key': 'decision', 'params': {'winner': 'NS', 'declarers': 'NS', 'made': True, \
'decided_by': 'game-points', 'tie_digit': None}}
{'key': 'written', 'params': {'NS': 15, 'EW': 3, 'how': 'made'}}
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Final

from baloot.core.cards import CARDS
from baloot.core.projects import ProjectKind
from baloot.core.rules import KabootProjects, Rules
from baloot.core.scoring import HandResult, HandScore
from baloot.core.seats import Seat, Team
from baloot.core.vocabulary import Contract, ContractKind, DecidedBy, Level, Outcome, Rounding
from baloot.records.record import shown
from baloot.records.summary import teams_json
from baloot.view.keyed import key_of, keyed

#: A parameter's value: a JSON scalar, or a list of strings (a tuple here).
Param = str | int | bool | None | tuple[str, ...]


class SheetKey(Enum):
    """What a line of the sheet explains; the value is the key written in the JSON."""

    ANNULLED = "annulled"
    CONTRACT = "contract"
    TRICKS = "tricks"
    CARD_POINTS = "card_points"
    COUNTING_TEAM = "counting_team"
    KABOOT = "kaboot"
    PROJECTS = "projects"
    DECLARED_NOT_SCORED = "declared_not_scored"
    NO_PROJECTS = "no_projects"
    BALOOT = "baloot"
    GAME_POINTS = "game_points"
    DOUBLING = "doubling"
    GAHWA = "gahwa"
    DECISION = "decision"
    WRITTEN = "written"


@dataclass(frozen=True, slots=True)
class SheetLine:
    """One line of the sheet: its key and its parameters (see the table of the module).

    >>> SheetLine(SheetKey.TRICKS, {"NS": 6, "EW": 2}).params["EW"]
    2
    """

    key: SheetKey
    params: Mapping[str, Param] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        """``{"key": ..., "params": {...}}``, lists as lists.

        >>> SheetLine(SheetKey.DECLARED_NOT_SCORED,
        ...           {"seat": "E", "team": "EW", "kinds": ("sira",)}).to_json()
        {'key': 'declared_not_scored', 'params': {'seat': 'E', 'team': 'EW', 'kinds': ['sira']}}
        """
        params = {
            name: list(value) if isinstance(value, tuple) else value
            for name, value in self.params.items()
        }
        return {"key": self.key.value, "params": params}

    @classmethod
    def from_json(cls, data: object) -> SheetLine:
        """The line that :meth:`to_json` wrote, checked against the module's table: the key,
        exactly its parameters, each of its type and among its values. Anything else (a
        browser's message, say) is a :class:`ValueError` with a one-line reason.

        >>> SheetLine.from_json({"key": "tricks", "params": {"NS": 6, "EW": 2}})
        SheetLine(key=<SheetKey.TRICKS: 'tricks'>, params={'NS': 6, 'EW': 2})
        >>> SheetLine.from_json({"key": "tricks", "params": {"NS": 6, "EW": "2"}})
        Traceback (most recent call last):
        ...
        ValueError: tricks: EW must be a whole number from 0, not "2"
        """
        text = key_of(data, "a sheet line")
        try:
            key = SheetKey(text)
        except (ValueError, TypeError):
            raise ValueError(f"unknown sheet key {shown(text)}") from None
        checks = PARAMS[key]
        given = keyed(data, "a sheet line", checks)
        params: dict[str, Param] = {}
        for name, check in checks.items():
            value = given[name]
            if not check.accepts(value):
                raise ValueError(f"{key.value}: {name} must be {check.what}, not {shown(value)}")
            params[name] = tuple(value) if isinstance(value, list) else value
        if key is SheetKey.PROJECTS and len({len(words_of(params[n])) for n in _PROJECT_LISTS}) > 1:
            raise ValueError("projects: seats, kinds and cards must be lists of one length")
        return cls(key, params)


#: How each team writes the hand, as ``written``'s ``how``.
HOW: Final = ("made", "failed", "doubled", "kaboot", "gahwa")
#: What became of the Baloot, as ``baloot``'s ``fate``.
FATES: Final = ("kept", "transferred", "lost")


@dataclass(frozen=True, slots=True)
class _Check:
    """What a parameter must be: ``what`` in words, ``accepts`` as a test."""

    what: str
    accepts: Callable[[object], bool]


def _among(what: str, values: Sequence[Param]) -> _Check:
    """One of ``values``, of the same type too (``true`` is not ``1``)."""
    return _Check(what, lambda v: any(type(v) is type(x) and v == x for x in values))


def _names(values: Sequence[str]) -> str:
    quoted = [json.dumps(value) for value in values]
    return ", ".join(quoted[:-1]) + " or " + quoted[-1]


def _choice(values: Sequence[str]) -> _Check:
    return _among(_names(values), values)


def _or_null(check: _Check) -> _Check:
    return _Check(f"{check.what} or null", lambda v: v is None or check.accepts(v))


def _list(check: _Check) -> _Check:
    return _Check(
        f"a list, each {check.what}",
        lambda v: isinstance(v, list) and all(check.accepts(x) for x in v),
    )


def _is_cards(value: object) -> bool:
    return (
        isinstance(value, str) and bool(value) and all(w in _CARD_TEXTS for w in value.split(" "))
    )


_CARD_TEXTS: Final = frozenset(card.text for card in CARDS)
_COUNT: Final = _Check("a whole number from 0", lambda v: type(v) is int and v >= 0)
_BOOL: Final = _Check("true or false", lambda v: type(v) is bool)
_SEAT: Final = _among("a seat (N, W, S or E)", [seat.name for seat in Seat])
_TEAM: Final = _among("a team (NS or EW)", [team.name for team in Team])
_SUIT: Final = _among("a suit letter (s, h, d or c)", ["s", "h", "d", "c"])
_PROJECT: Final = _choice([kind.word for kind in ProjectKind])
_CARDS: Final = _Check("cards as texts like Qh, separated by spaces", _is_cards)
_PROJECT_LISTS: Final = ("seats", "kinds", "cards")

#: The parameters of each key, in the order :func:`explain` writes them, and what each must be.
PARAMS: Final[dict[SheetKey, dict[str, _Check]]] = {
    SheetKey.ANNULLED: {"reason": _choice(["passes", "kawesh"]), "seat": _or_null(_SEAT)},
    SheetKey.CONTRACT: {
        "kind": _choice([kind.value for kind in ContractKind]),
        "trump": _or_null(_SUIT),
        "declarer": _SEAT,
        "team": _TEAM,
        "level": _among('1, 2, 3, 4 or "gahwa"', [1, 2, 3, 4, "gahwa"]),
        "locked": _BOOL,
    },
    SheetKey.TRICKS: {"NS": _COUNT, "EW": _COUNT},
    SheetKey.CARD_POINTS: {"NS": _COUNT, "EW": _COUNT, "total": _COUNT},
    SheetKey.COUNTING_TEAM: {
        "team": _TEAM,
        "points": _COUNT,
        "rounded": _COUNT,
        "rounding": _choice([rounding.value for rounding in Rounding]),
        "other": _TEAM,
        "other_rounded": _COUNT,
    },
    SheetKey.KABOOT: {"team": _TEAM, "projects": _choice([p.value for p in KabootProjects])},
    SheetKey.PROJECTS: {
        "team": _TEAM,
        "seats": _list(_SEAT),
        "kinds": _list(_PROJECT),
        "cards": _list(_CARDS),
        "points": _COUNT,
    },
    SheetKey.DECLARED_NOT_SCORED: {"seat": _SEAT, "team": _TEAM, "kinds": _list(_PROJECT)},
    SheetKey.NO_PROJECTS: {},
    SheetKey.BALOOT: {
        "seat": _SEAT,
        "team": _TEAM,
        "points": _COUNT,
        "fate": _choice(FATES),
        "written_by": _or_null(_TEAM),
        "written": _COUNT,
    },
    SheetKey.GAME_POINTS: {"NS": _COUNT, "EW": _COUNT},
    SheetKey.DOUBLING: {"level": _among("2, 3 or 4", [2, 3, 4]), "factor": _COUNT},
    SheetKey.GAHWA: {"team": _TEAM},
    SheetKey.DECISION: {
        "winner": _TEAM,
        "declarers": _TEAM,
        "made": _BOOL,
        "decided_by": _choice([decided.value for decided in DecidedBy]),
        "tie_digit": _or_null(_among("a digit", list(range(10)))),
    },
    SheetKey.WRITTEN: {"NS": _COUNT, "EW": _COUNT, "how": _choice(HOW)},
}


def words_of(value: Param) -> tuple[str, ...]:
    """A parameter that is a list of words (seats, kinds, cards), as its tuple.

    >>> words_of(("N", "S"))
    ('N', 'S')
    """
    assert isinstance(value, tuple)
    return value


def explain(result: HandResult, rules: Rules) -> tuple[SheetLine, ...]:
    """The sheet of ``result``: the lines of the module's table that apply, in its order.

    ``rules`` are the rules the hand was played under (the ``kaboot`` line names their
    ``kaboot_projects``).
    """
    if result.outcome is Outcome.ANNULLED:
        kawesh = result.kawesh
        return (
            SheetLine(
                SheetKey.ANNULLED,
                {
                    "reason": "passes" if kawesh is None else "kawesh",
                    "seat": None if kawesh is None else kawesh.name,
                },
            ),
        )
    lines: list[SheetLine] = []
    contract = result.contract
    if contract is not None:
        lines.append(_contract(contract))
    lines.append(SheetLine(SheetKey.TRICKS, _teams(result.tricks)))
    lines.append(
        SheetLine(
            SheetKey.CARD_POINTS, {**_teams(result.card_points), "total": sum(result.card_points)}
        )
    )
    score = result.scoring
    if result.outcome is not Outcome.PLAYED or score is None or contract is None:
        return tuple(lines)
    if score.kaboot is None:
        lines.append(_counting(result, score))
    else:
        lines.append(
            SheetLine(
                SheetKey.KABOOT,
                {"team": score.kaboot.name, "projects": rules.kaboot_projects.value},
            )
        )
    lines.extend(_projects(result, contract.kind is ContractKind.SUN))
    if result.baloot_holder is not None:
        lines.append(_baloot(result, result.baloot_holder, score))
    if score.kaboot is None:
        lines.append(SheetLine(SheetKey.GAME_POINTS, _teams(score.game_points)))
    if contract.level is Level.GAHWA:
        lines.append(SheetLine(SheetKey.GAHWA, {"team": score.winner.name}))
    elif contract.level > Level.SINGLE:
        lines.append(
            SheetLine(
                SheetKey.DOUBLING, {"level": int(contract.level), "factor": score.project_factor}
            )
        )
    lines.append(
        SheetLine(
            SheetKey.DECISION,
            {
                "winner": score.winner.name,
                "declarers": contract.declarers.name,
                "made": score.made,
                "decided_by": score.decided_by.value,
                "tie_digit": score.tie_digit,
            },
        )
    )
    lines.append(
        SheetLine(SheetKey.WRITTEN, {**_teams(score.score), "how": _how(contract.level, score)})
    )
    return tuple(lines)


def to_json(lines: Sequence[SheetLine]) -> list[dict[str, object]]:
    """The ``sheet`` of a ``hand-over`` message: ``[{"key": ..., "params": {...}}, ...]``.

    >>> to_json([SheetLine(SheetKey.NO_PROJECTS)])
    [{'key': 'no_projects', 'params': {}}]
    """
    return [line.to_json() for line in lines]


def from_json(data: object) -> tuple[SheetLine, ...]:
    """The lines of a ``sheet`` as :func:`to_json` wrote it, each checked by
    :meth:`SheetLine.from_json`; a :class:`ValueError` names the line that is wrong.

    >>> from_json([{"key": "no_projects", "params": {}}])
    (SheetLine(key=<SheetKey.NO_PROJECTS: 'no_projects'>, params={}),)
    >>> from_json([{"key": "no_projects", "params": {}}, {"key": "trick", "params": {}}])
    Traceback (most recent call last):
    ...
    ValueError: sheet line 2: unknown sheet key "trick"
    """
    if not isinstance(data, list):
        raise ValueError(f"a sheet must be a list of lines, not {shown(data)}")
    lines = []
    for number, item in enumerate(data, 1):
        try:
            lines.append(SheetLine.from_json(item))
        except ValueError as error:
            raise ValueError(f"sheet line {number}: {error}") from None
    return tuple(lines)


def _teams(pair: tuple[int, int]) -> dict[str, Param]:
    return dict(teams_json(pair))


def _contract(contract: Contract) -> SheetLine:
    return SheetLine(
        SheetKey.CONTRACT,
        {
            "kind": contract.kind.value,
            "trump": None if contract.trump is None else contract.trump.letter,
            "declarer": contract.declarer.name,
            "team": contract.declarers.name,
            "level": contract.level.json,
            "locked": contract.locked,
        },
    )


def _counting(result: HandResult, score: HandScore) -> SheetLine:
    counting = score.counting_team
    assert score.rounding is not None  # every hand but a Kaboot converts its card points
    return SheetLine(
        SheetKey.COUNTING_TEAM,
        {
            "team": counting.name,
            "points": result.card_points[counting],
            "rounded": score.card_game_points[counting],
            "rounding": score.rounding.value,
            "other": counting.other.name,
            "other_rounded": score.card_game_points[counting.other],
        },
    )


def _projects(result: HandResult, sun: bool) -> list[SheetLine]:
    lines = []
    for team in Team:
        shown = [item for item in result.shown if item.seat.team == team]
        if not shown or not result.projects[team]:
            continue
        lines.append(
            SheetLine(
                SheetKey.PROJECTS,
                {
                    "team": team.name,
                    "seats": tuple(item.seat.name for item in shown),
                    "kinds": tuple(item.project.kind.word for item in shown),
                    "cards": tuple(
                        " ".join(card.text for card in item.project.cards) for item in shown
                    ),
                    "points": sum(item.project.kind.game_points(sun) for item in shown),
                },
            )
        )
    declared = [
        SheetLine(
            SheetKey.DECLARED_NOT_SCORED,
            {
                "seat": seat.name,
                "team": seat.team.name,
                "kinds": tuple(kind.word for kind in kinds),
            },
        )
        for seat in Seat
        if (kinds := result.declared[seat]) and not result.projects[seat.team]
    ]
    lines.extend(declared)
    if not lines:
        lines.append(SheetLine(SheetKey.NO_PROJECTS))
    return lines


def _baloot(result: HandResult, holder: Seat, score: HandScore) -> SheetLine:
    team = holder.team
    writers = [t for t in Team if score.baloot_written[t] > 0]
    writer = writers[0] if writers else None
    fate = "lost" if writer is None else "kept" if writer == team else "transferred"
    return SheetLine(
        SheetKey.BALOOT,
        {
            "seat": holder.name,
            "team": team.name,
            "points": result.baloot[team],
            "fate": fate,
            "written_by": None if writer is None else writer.name,
            "written": 0 if writer is None else score.baloot_written[writer],
        },
    )


def _how(level: Level, score: HandScore) -> str:
    if level is Level.GAHWA:
        return "gahwa"
    if score.kaboot is not None:
        return "kaboot"
    if level > Level.SINGLE:
        return "doubled"
    return "made" if score.made else "failed"
