"""Ratings: who a finished or abandoned match rates, and how, with OpenSkill's Weng–Lin
Plackett–Luce model (``docs/ratings.md``).

A rating is a skill ``mu`` and its uncertainty ``sigma``, per player and per rules preset; it
is shown as its ordinal ``mu - 3 sigma`` (a lower bound the player is almost surely above),
with a "?" while :func:`provisional`. A match is rated when every seat is an account or a bot
of :data:`BOTS` (each bot at its fixed rating, which a match never moves) and its rules are a
preset; a guest, a bot of another name or custom rules leave it unrated. Each team is its two
seats; the model rates the two teams, and only the accounts take their new ratings.

Plackett–Luce is the library's default, and with two teams it is the Bradley–Terry model of
one win against one loss: nothing of a ranking of more teams, where the models differ, is
ever used, and the default is the model OpenSkill tests and tunes most.

>>> winners = rate({"N": "p1", "S": "p2", "E": "bot:easy", "W": "bot:easy"}, {}, "NS")
>>> sorted(winners), winners["p1"].mu > START.mu, winners["p1"] == winners["p2"]
(['p1', 'p2'], True, True)
>>> deserted = rate_abandoned({"N": "p1", "S": "p2", "E": "p3", "W": "p4"}, {}, {"N"})
>>> sorted(deserted), deserted["p1"].mu < START.mu
(['p1'], True)
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Final

from openskill.models import PlackettLuce, PlackettLuceRating

from baloot.core.rules import PRESETS
from baloot.server.journal import Step, StepKind, TableConfig

#: The model: OpenSkill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300).
MODEL: Final = PlackettLuce()

#: A rating is provisional (shown with a "?") until the player has this many rated matches
#: in the preset...
PROVISIONAL_MATCHES: Final = 10
#: ...and while its sigma is above this (a new player's is 25/3, about 8.3; it falls under 7
#: after about ten matches among new players, sooner against players better known).
PROVISIONAL_SIGMA: Final = 7.0
#: A leaderboard lists only the players with at least this many rated matches in its
#: preset (and, for ``month``, in its last 30 days).
LEADERBOARD_MATCHES: Final = 5

#: The uncertainty of every bot's fixed rating: small, so that a bot weighs as a known player.
BOT_SIGMA: Final = 1.0
#: Each bot's fixed skill by its name at a table (``bot:NAME``). The heuristic bot (``easy``)
#: stands where a new account starts, 25; the others stand where the model's own chance of a
#: win (``MODEL.predict_win``, two of the bot against two heuristic bots) is the match win
#: rate the duplicate arena measured against it (``docs/expert.md``, ``docs/rl.md``): ``medium``
#: 78 %, ``expert`` 83 %, ``hard`` 85 %, ``ismcts`` about 67 % (``medium`` beats it 62 %), the
#: neural bot about 60 %, and ``random`` 1 % (``docs/ratings.md``). A bot named otherwise
#: (other options, an operator's program) leaves the match unrated.
BOTS: Final[Mapping[str, float]] = {
    "random": 17.8,
    "easy": 25.0,
    "heuristic": 25.0,
    "neural": 25.8,
    "ismcts": 26.4,
    "medium": 27.4,
    "expert": 28.0,
    "hard": 28.2,
}
_TEAMS: Final = {"NS": ("N", "S"), "EW": ("E", "W")}
#: The steps a human seat takes itself, which tell when it was last there.
_OWN_STEPS: Final = frozenset(
    {StepKind.ACT, StepKind.NEXT, StepKind.ENTROPY, StepKind.UNDO, StepKind.SAY}
)


@dataclass(frozen=True, slots=True)
class Skill:
    """A player's rating in one preset: ``mu``, ``sigma`` and the rated matches behind it.

    >>> START.ordinal, START.provisional
    (0.0, True)
    """

    mu: float
    sigma: float
    matches: int = 0

    @property
    def ordinal(self) -> float:
        """What is shown: ``mu - 3 sigma``."""
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        """True until :data:`PROVISIONAL_MATCHES` rated matches and while sigma is above
        :data:`PROVISIONAL_SIGMA`."""
        return self.matches < PROVISIONAL_MATCHES or self.sigma > PROVISIONAL_SIGMA


#: Every account's rating before its first rated match in a preset.
START: Final = Skill(MODEL.mu, MODEL.sigma)


def preset_of(config: TableConfig) -> str | None:
    """The rules preset a table is rated in, or None for custom rules (never rated)."""
    return config.rules if isinstance(config.rules, str) and config.rules in PRESETS else None


def sitters(config: TableConfig, accounts: Mapping[str, str]) -> dict[str, str] | None:
    """Who sits at each seat for the ratings: an account's id (``accounts`` maps a seat
    letter to it) or ``bot:NAME`` for a bot of :data:`BOTS`; None when the match is not rated
    (a guest, another bot, custom rules, one account at two seats).

    >>> config = TableConfig("t1", {"N": "bot:easy", "E": "bot:easy", "S": "Saad",
    ...     "W": "bot:easy"}, ("S",), "classic", 7, None, False, {}, 0.0)
    >>> sitters(config, {"S": "p1"})
    {'N': 'bot:easy', 'E': 'bot:easy', 'S': 'p1', 'W': 'bot:easy'}
    >>> sitters(config, {}) is None
    True
    """
    if preset_of(config) is None:
        return None
    seats: dict[str, str] = {}
    for seat, label in config.players.items():
        if seat in config.humans:
            if seat not in accounts:
                return None
            seats[seat] = accounts[seat]
        elif label.removeprefix("bot:") in BOTS and label.startswith("bot:"):
            seats[seat] = label
        else:
            return None
    accounts_seated = [s for s in seats.values() if not _is_bot(s)]
    if len(set(accounts_seated)) < len(accounts_seated):
        return None  # one account at two seats: it would play against or beside itself
    return seats


def abandoners(config: TableConfig, steps: Iterable[Step]) -> set[str]:
    """The human seats that left a table closed unfinished: those whose last step of their
    own (an action, a "next", their entropy, an undo, a line of talk) came first, never
    having taken one counting as earliest. Empty when nobody decided anything at the table
    (no action of a human or a bot): a match that never began is not rated.

    >>> from baloot.core.seats import Seat
    >>> config = TableConfig("t1", {"N": "Nada", "E": "bot:easy", "S": "Saad",
    ...     "W": "bot:easy"}, ("N", "S"), "classic", 7, None, False, {}, 0.0)
    >>> played = [Step(StepKind.ACT, 1, Seat.S), Step(StepKind.ACT, 2, Seat.N),
    ...     Step(StepKind.BOT, 3, Seat.E), Step(StepKind.ACT, 4, Seat.S)]
    >>> abandoners(config, played)
    {'N'}
    """
    last = dict.fromkeys(config.humans, -1)
    began = False
    for n, step in enumerate(steps):
        began = began or step.kind in (StepKind.ACT, StepKind.BOT, StepKind.CLAIM)
        if step.kind in _OWN_STEPS and step.seat is not None and step.seat.name in last:
            last[step.seat.name] = n
    if not began or not last:
        return set()
    first = min(last.values())
    return {seat for seat, n in last.items() if n == first}


@dataclass(frozen=True, slots=True)
class Plan:
    """How one match is rated: its preset, who sat where (:func:`sitters`), and either the
    team that won (a finished match) or the seats that left (a table closed unfinished)."""

    preset: str
    seats: Mapping[str, str]
    winner: str | None
    left: frozenset[str] = frozenset()

    @property
    def players(self) -> list[str]:
        """The accounts of the match, sorted (the order their rows are locked in)."""
        return sorted({s for s in self.seats.values() if not _is_bot(s)})

    def rate(self, skills: Mapping[str, Skill]) -> dict[str, Skill]:
        """The new ratings of the accounts this match changes."""
        if self.winner is not None:
            return rate(self.seats, skills, self.winner)
        return rate_abandoned(self.seats, skills, self.left)


def plan(
    config: TableConfig,
    accounts: Mapping[str, str],
    winner: str | None,
    steps: Iterable[Step] | None,
) -> Plan | None:
    """How a match ends rated: finished with ``winner`` (``NS`` or ``EW``), or, with
    ``steps`` (its journal), closed unfinished; None when it is not rated."""
    preset, seats = preset_of(config), sitters(config, accounts)
    if preset is None or seats is None:
        return None
    if winner is not None:
        return Plan(preset, seats, winner) if winner in _TEAMS else None
    left = abandoners(config, steps or ())
    return Plan(preset, seats, None, frozenset(left)) if left else None


def rate(seats: Mapping[str, str], skills: Mapping[str, Skill], winner: str) -> dict[str, Skill]:
    """The accounts' new ratings after a match ``winner`` (``NS`` or ``EW``) won: ``seats``
    as :func:`sitters` gives them, ``skills`` the accounts' ratings before (missing:
    :data:`START`)."""
    loser = "EW" if winner == "NS" else "NS"
    return _rated(seats, skills, winner, loser, {s for s in seats if not _is_bot(seats[s])})


def rate_abandoned(
    seats: Mapping[str, str], skills: Mapping[str, Skill], left: Collection[str]
) -> dict[str, Skill]:
    """The new ratings of the accounts at the seats ``left`` of a table closed unfinished:
    each takes a loss of its team against the other, alone; its partner and the opponents
    keep their ratings (a friend who sits down and leaves hands nobody a win)."""
    changed: dict[str, Skill] = {}
    for seat in left:
        if seat not in seats or _is_bot(seats[seat]):
            continue
        team = "NS" if seat in _TEAMS["NS"] else "EW"
        other = "EW" if team == "NS" else "NS"
        changed |= _rated(seats, skills, other, team, {seat})
    return changed


def _rated(
    seats: Mapping[str, str],
    skills: Mapping[str, Skill],
    winner: str,
    loser: str,
    kept: Collection[str],
) -> dict[str, Skill]:
    """The model's new ratings of the seats ``kept`` after ``winner`` beat ``loser``."""

    def team(name: str) -> list[PlackettLuceRating]:
        return [_model_rating(seats[seat], skills) for seat in _TEAMS[name]]

    first, second = MODEL.rate([team(winner), team(loser)], ranks=[1, 2])
    after = dict(zip((*_TEAMS[winner], *_TEAMS[loser]), (*first, *second), strict=True))
    out: dict[str, Skill] = {}
    for seat in kept:
        player = seats[seat]
        before = skills.get(player, START)
        out[player] = Skill(after[seat].mu, after[seat].sigma, before.matches + 1)
    return out


def _model_rating(sitter: str, skills: Mapping[str, Skill]) -> PlackettLuceRating:
    if _is_bot(sitter):
        return MODEL.rating(mu=BOTS[sitter.removeprefix("bot:")], sigma=BOT_SIGMA)
    skill = skills.get(sitter, START)
    return MODEL.rating(mu=skill.mu, sigma=skill.sigma)


def _is_bot(sitter: str) -> bool:
    return sitter.startswith("bot:")
