"""How much an expert bot thinks: its budget in worlds and deals, read from the bot's options.

A budget is counted in samples, never in seconds, so that a run is the same on any machine
for the same seed; the clock (:func:`~baloot.bots.clock.current_clock`) is only a ceiling for
live play. The defaults take about a second a decision on one core, ``hard`` at most about a
second, ``fast`` about a tenth of a second.

>>> SearchBudget.of({}).samples, SearchBudget.of({}).first
(1200, 144)
>>> SearchBudget.of({"fast": ""}).samples, SearchBudget.of({"samples": "12", "mode": "points"}).mode
(150, <PlayMode.POINTS: 'points'>)
>>> SearchBudget.of({"samples": "none"})
Traceback (most recent call last):
...
baloot.bots.names.UnknownBotError: bot 'expert': samples takes a whole number from 1 to 100000, \
not 'none'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from baloot.bots.expert.support import BotOptions, OptionBounds, UnknownBotError


class PlayMode(StrEnum):
    """What the solver maximises in the play: card points all the hand, the written score all
    the hand, or card points in the early tricks and the written score from trick
    ``score_from`` on (``auto``)."""

    POINTS = "points"
    SCORE = "score"
    AUTO = "auto"


#: The play modes' names, as the ``mode`` option takes them.
MODES: Final = tuple(PlayMode)
#: The options that set a field of the budget.
FIELDS: Final = ("samples", "first", "deals", "pool", "mode", "score_from", "confidence", "bolder")
_MOST: Final = 100_000


@dataclass(frozen=True, slots=True)
class SearchBudget:
    """``samples`` worlds solved for a card (fewer in the first tricks, where a world costs
    more to solve: see :meth:`worlds`); ``deals`` deals played out for a bid or a
    double; ``pool`` worlds drawn for each one kept (the calls and plays of the others pick
    the likely ones); ``mode`` what the solver maximises (:class:`PlayMode`); ``score_from``
    the first trick (0-based) played for the written score in ``auto`` mode; ``confidence``
    how many standard errors a call must gain over the usual call to be preferred;
    ``bolder`` how much lower than the heuristic bot's the usual call's bidding thresholds
    are (it plays its contracts better)."""

    samples: int = 1200
    first: int = 144
    deals: int = 192
    pool: int = 3
    mode: PlayMode = PlayMode.AUTO
    score_from: int = 4
    confidence: float = 1.5
    bolder: float = 0.0

    def worlds(self, trick: int) -> int:
        """The worlds solved for a card in ``trick`` (0-based): ``first`` in the first trick,
        four times as many in each next one (a world costs about a fifth of the one before
        to solve), up to ``samples``.

        >>> [SearchBudget(samples=40, first=6).worlds(trick) for trick in range(4)]
        [6, 24, 40, 40]
        """
        return min(self.samples, self.first << (2 * trick))

    @classmethod
    def of(cls, options: Mapping[str, str], bot: str = "expert") -> SearchBudget:
        """The budget that ``options`` ask for: a preset word (:data:`PRESETS`) and
        ``key=value`` settings of the fields, applied after it; an
        :class:`~baloot.bots.names.UnknownBotError` for anything else."""
        given = options if isinstance(options, BotOptions) else BotOptions(options.items(), bot)
        given.check(*PRESETS, *FIELDS)
        budget = cls()
        for word in given.words:
            if word in PRESETS:
                budget = PRESETS[word]
        mode = given.get("mode", budget.mode)
        if mode not in MODES:
            raise UnknownBotError(f"bot {bot!r}: mode takes {', '.join(MODES)}, not {mode!r}")
        return dataclasses.replace(
            budget,
            samples=given.integer("samples", budget.samples, 1, _MOST),
            first=given.integer("first", budget.first, 1, _MOST),
            deals=given.integer("deals", budget.deals, 1, _MOST),
            pool=given.integer("pool", budget.pool, 1, 100),
            mode=PlayMode(mode),
            score_from=given.integer("score_from", budget.score_from, 0, 8),
            confidence=given.number("confidence", budget.confidence, 0.0, 100.0),
            bolder=given.number("bolder", budget.bolder, -5.0, 5.0),
        )


#: Named budgets (mean CPU time of a decision on one core, docs/expert.md): the default
#: about a second; ``hard`` about a fifth of that and at most about a second; ``fast``
#: about a tenth of a second.
PRESETS: Final = {
    "default": SearchBudget(),
    "hard": SearchBudget(samples=300, first=24, deals=48),
    "fast": SearchBudget(samples=150, first=10, deals=16, pool=2),
}

#: What a client of a web table may ask of an expert bot (``docs/bots.md``): a named budget,
#: the settings that cost no time, and no more worlds or deals than the default budget's
#: (about a second a decision; the decision's clock is the ceiling besides).
CLIENT_BOUNDS: Final = OptionBounds(
    free=(*PRESETS, "mode", "score_from", "confidence", "bolder"),
    most={
        field: getattr(PRESETS["default"], field) for field in ("samples", "first", "deals", "pool")
    },
)
