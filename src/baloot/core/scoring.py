"""Scoring a finished hand (R12): counting team, rounding, who won, what each team writes.

This module knows nothing of cards in play: it takes the facts of a hand (card points, tricks,
scored projects, Baloot) and applies R12 under the rules' flags. Worked example S2 of the spec:

>>> from baloot.core.rules import Rules
>>> s = score_hand(Rules(), sun=False, declarers=Team.EW, level=1,
...                card_points=(77, 85), tricks=(4, 4), project_team=Team.NS,
...                project_points=5, project_raw=50, baloot=(0, 0))
>>> s.score, s.made, s.counting_team
((21, 0), False, <Team.NS: 0>)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, assert_never

from baloot.core.projects import Project, ProjectKind
from baloot.core.rules import (
    BalootOnLoss,
    DoubledExactTie,
    KabootProjects,
    ProjectMultiplier,
    Rules,
    WinComparison,
)
from baloot.core.seats import Seat, Team
from baloot.core.vocabulary import Contract, DecidedBy, Level, Outcome, Rounding, ShownProject

#: The game points of all a hand's cards once converted (R12.4): Sun, Hokum.
SUN_HAND: Final = 26
HOKUM_HAND: Final = 16
#: What an Al-kaboot writes before doubling and projects (R12.8): Sun, Hokum.
SUN_KABOOT: Final = 44
HOKUM_KABOOT: Final = 25


@dataclass(frozen=True, slots=True, kw_only=True)
class HandScore:
    """How a hand was scored: every intermediate figure, so the sheet can explain itself.

    ``tie_digit`` is the last digit of the counting team's card points when it decided a tie
    (``decided_by`` is :attr:`DecidedBy.TIE_DIGIT`), else None; ``rounding`` is None in a
    Kaboot, where no card points are converted; ``baloot_written`` is the Baloot points each
    team finally writes (R12.7, R12.8, #34), which may differ from who held it.
    """

    counting_team: Team
    card_game_points: tuple[int, int]
    game_points: tuple[int, int]
    winner: Team
    made: bool
    kaboot: Team | None
    score: tuple[int, int]
    decided_by: DecidedBy
    tie_digit: int | None = None
    rounding: Rounding | None = None
    project_factor: int = 1
    baloot_written: tuple[int, int] = (0, 0)


@dataclass(frozen=True, slots=True, kw_only=True)
class HandResult:
    """What a hand came to (R12): ``None`` where a figure is not known yet (#41, #42).

    ``projects`` are the projects each team scored (the comparison's winner, R10.6) and
    ``shown`` the same with the seats that held them; ``declared`` is what each seat declared
    (kinds, None for a seat that did not); ``baloot`` the Baloot points credited to each team
    (#25) and ``baloot_holder`` the seat that held it; ``kawesh`` the seat whose Kawesh
    annulled the hand.
    """

    outcome: Outcome
    dealer: Seat
    contract: Contract | None
    tricks: tuple[int, int]
    card_points: tuple[int, int]
    projects: tuple[tuple[Project, ...], tuple[Project, ...]] = ((), ())
    shown: tuple[ShownProject, ...] = ()
    declared: tuple[tuple[ProjectKind, ...] | None, ...] = (None, None, None, None)
    baloot: tuple[int, int] = (0, 0)
    baloot_holder: Seat | None = None
    made: bool | None = None
    kaboot: Team | None = None
    score: tuple[int, int] | None = None
    scoring: HandScore | None = None
    gahwa_winner: Team | None = None
    kawesh: Seat | None = None


def counting_team(declarers: Team, level: int) -> Team:
    """R12.3: the opponents of the last caller among bid, Double, Triple, Four, Gahwa.

    >>> counting_team(Team.EW, 1), counting_team(Team.EW, 2)
    (<Team.NS: 0>, <Team.EW: 1>)
    """
    return declarers if level in (Level.DOUBLE, Level.FOUR) else declarers.other


def round_hokum(points: int) -> int:
    """R12.4 Hokum: tens, a remainder of 6 or more rounds up (a 5 rounds down).

    >>> round_hokum(65), round_hokum(66), round_hokum(56)
    (6, 7, 6)
    """
    return points // 10 + (1 if points % 10 >= 6 else 0)


def round_sun(points: int) -> int:
    """R12.4 Sun: to the nearest ten keeping a 5, then divided by 5.

    >>> round_sun(65), round_sun(66), round_sun(64), round_sun(41)
    (13, 14, 12, 8)
    """
    digit = points % 10
    if 1 <= digit <= 4:
        points -= digit
    elif digit >= 6:
        points += 10 - digit
    return points // 5


def rounding(rules: Rules, sun: bool) -> Rounding:
    """Which rounding converts card points to game points (R12.4, #30).

    >>> rounding(Rules(), sun=False), rounding(Rules(hokum_pair_rounding=True), sun=True)
    (<Rounding.HOKUM: 'hokum'>, <Rounding.SUN: 'sun'>)
    """
    if sun:
        return Rounding.SUN
    return Rounding.HOKUM_PAIR if rules.hokum_pair_rounding else Rounding.HOKUM


def card_game_points(
    rules: Rules, sun: bool, counting: Team, card_points: tuple[int, int]
) -> tuple[int, int]:
    """Both teams' card game points, converting only the counting team's (R12.4, #30)."""
    if sun:
        counted = round_sun(card_points[counting])
        total = SUN_HAND
    elif rules.hokum_pair_rounding:
        ns, ew = (round_hokum(p) for p in card_points)
        if ns + ew == 17:
            loser = max(Team, key=lambda t: (card_points[t] % 10, card_points[t]))
            return (ns - 1, ew) if loser == Team.NS else (ns, ew - 1)
        return (ns, ew)
    else:
        counted = round_hokum(card_points[counting])
        total = HOKUM_HAND
    return (counted, total - counted) if counting == Team.NS else (total - counted, counted)


def _tie_winner(sun: bool, declarers: Team, counting: Team, counted_points: int) -> Team:
    """R12.6: the last digit of the counting team's card points decides an exact tie."""
    digit = counted_points % 10
    if sun:
        if 1 <= digit <= 4:
            return counting
        return counting.other if digit >= 6 else declarers
    if 2 <= digit <= 5:
        return counting
    return declarers if digit == 1 else counting.other


def doubling_factor(sun: bool, level: int) -> int:
    """R12.7: how doubling multiplies what the winner of a hand writes: a doubled Sun ×2, a
    Hokum by its level.

    >>> doubling_factor(True, 2), doubling_factor(False, 3), doubling_factor(False, 1)
    (2, 3, 1)
    """
    if level == Level.SINGLE:
        return 1
    return 2 if sun else level


def project_multiplier(rules: Rules, level: int) -> int:
    """How doubling multiplies scored projects (``project_multiplier``, #31).

    >>> project_multiplier(Rules(), 3), project_multiplier(Rules(project_multiplier="level"), 3)
    (2, 3)
    """
    if level == 1:
        return 1
    match rules.project_multiplier:
        case ProjectMultiplier.LEVEL:
            return level
        case ProjectMultiplier.X2_AT_DOUBLE_X1_ABOVE:
            return 2 if level == 2 else 1
        case ProjectMultiplier.X2:
            return 2
        case unknown:
            assert_never(unknown)


def score_hand(
    rules: Rules,
    *,
    sun: bool,
    declarers: Team,
    level: int,
    card_points: tuple[int, int],
    tricks: tuple[int, int],
    project_team: Team | None,
    project_points: int,
    project_raw: int,
    baloot: tuple[int, int],
) -> HandScore:
    """Apply R12 to the facts of a completed hand.

    ``level`` is a :class:`Level` (1–4, or 5 for the Gahwa); ``project_points`` are the base
    game points of every project scored by ``project_team`` (the team that won the
    comparison), ``project_raw`` their raw equivalent; ``baloot`` the unblocked Baloot points
    of each team.
    """
    counting = counting_team(declarers, level)
    factor = project_multiplier(rules, min(level, Level.FOUR))
    if 8 in tricks:
        return _score_kaboot(
            rules,
            sun,
            declarers,
            level,
            counting,
            Team(tricks.index(8)),
            project_team,
            project_points,
            factor,
            baloot,
        )
    cgp = card_game_points(rules, sun, counting, card_points)
    gp = tuple(cgp[t] + (project_points if project_team == t else 0) + baloot[t] for t in Team)
    game_points = (gp[0], gp[1])
    # R12.6 (``doubled_exact_tie``): an exact tie of a doubled hand may go against the last caller.
    last_caller_loses = (
        level > Level.SINGLE and rules.doubled_exact_tie is DoubledExactTie.LAST_CALLER_LOSES
    )
    tie_digit = None
    if rules.win_comparison is WinComparison.RAW_POINTS:
        raw = [
            card_points[t] + (project_raw if project_team == t else 0) + 10 * baloot[t]
            for t in Team
        ]
        if raw[declarers] != raw[declarers.other]:
            winner = max(Team, key=lambda t: raw[t])
            decided_by = DecidedBy.RAW_POINTS
        else:
            winner = counting if last_caller_loses else declarers
            decided_by = DecidedBy.RAW_TIE
    elif game_points[0] != game_points[1]:
        winner = Team.NS if game_points[0] > game_points[1] else Team.EW
        decided_by = DecidedBy.GAME_POINTS
    elif last_caller_loses:
        winner = counting
        decided_by = DecidedBy.LAST_CALLER
    else:
        winner = _tie_winner(sun, declarers, counting, card_points[counting])
        decided_by = DecidedBy.TIE_DIGIT
        tie_digit = card_points[counting] % 10
    made = winner == declarers
    projects = project_points * factor
    written, kept = _written(rules, sun, level, winner, made, game_points, projects, baloot)
    return HandScore(
        counting_team=counting,
        card_game_points=cgp,
        game_points=game_points,
        winner=winner,
        made=made,
        kaboot=None,
        score=written,
        decided_by=decided_by,
        tie_digit=tie_digit,
        rounding=rounding(rules, sun),
        project_factor=factor,
        baloot_written=kept,
    )


def _written(
    rules: Rules,
    sun: bool,
    level: int,
    winner: Team,
    made: bool,
    game_points: tuple[int, int],
    projects: int,
    baloot: tuple[int, int],
) -> tuple[tuple[int, int], tuple[int, int]]:
    """R12.7: what each team writes, and the Baloot points within it (#34); ``projects`` are
    the game points of the scored projects, already multiplied."""
    if level == Level.GAHWA:
        return (0, 0), (0, 0)
    if level == Level.SINGLE and made:
        return game_points, baloot
    kept = _baloot_written(rules, winner, baloot, kaboot=False)
    whole = (SUN_HAND if sun else HOKUM_HAND) * doubling_factor(sun, level)
    return _plus(kept, winner, whole + projects), kept


def _baloot_written(
    rules: Rules, winner: Team, baloot: tuple[int, int], *, kaboot: bool
) -> tuple[int, int]:
    """The Baloot points each team writes when ``winner`` takes a lost or doubled hand, or an
    Al-kaboot (R12.7, R12.8, #34): the winner its own; under ``baloot_on_loss`` "transfer"
    the loser's too (not in an Al-kaboot), under "keep" the loser keeps its own."""
    kept = [0, 0]
    kept[winner] = baloot[winner]
    match rules.baloot_on_loss:
        case BalootOnLoss.TRANSFER:
            if not kaboot:
                kept[winner] += baloot[winner.other]
        case BalootOnLoss.KEEP:
            kept[winner.other] = baloot[winner.other]
        case BalootOnLoss.VOID:
            pass
        case unknown:
            assert_never(unknown)
    return (kept[0], kept[1])


def _plus(points: tuple[int, int], team: Team, extra: int) -> tuple[int, int]:
    """``points`` with ``extra`` added to ``team``'s."""
    return (points[0] + extra, points[1]) if team == Team.NS else (points[0], points[1] + extra)


def _score_kaboot(
    rules: Rules,
    sun: bool,
    declarers: Team,
    level: int,
    counting: Team,
    kabooter: Team,
    project_team: Team | None,
    project_points: int,
    factor: int,
    baloot: tuple[int, int],
) -> HandScore:
    """R12.8 Al-kaboot: the team that took all eight tricks; ``factor`` multiplies the
    projects' game points (:func:`project_multiplier`)."""
    zero = (0, 0)
    written, kept = zero, zero
    if level != Level.GAHWA:
        base = SUN_KABOOT if sun else HOKUM_KABOOT
        if rules.kaboot_multiplied:
            base *= doubling_factor(sun, level)
        if rules.kaboot_projects is KabootProjects.ALL or (
            rules.kaboot_projects is KabootProjects.OWN_SCORED and project_team == kabooter
        ):
            base += project_points * factor
        kept = _baloot_written(rules, kabooter, baloot, kaboot=True)
        written = _plus(kept, kabooter, base)
    return HandScore(
        counting_team=counting,
        card_game_points=zero,
        game_points=zero,
        winner=kabooter,
        made=kabooter == declarers,
        kaboot=kabooter,
        score=written,
        decided_by=DecidedBy.KABOOT,
        project_factor=factor,
        baloot_written=kept,
    )
