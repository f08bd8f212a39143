"""How much an expert bot thinks: its budget in worlds and deals, read from the bot's options.

A budget is counted in samples, never in seconds, so that a run is the same on any machine
for the same seed; the clock (:func:`~baloot.bots.expert.support.current_clock`) is only a
ceiling for live play. The defaults take about a second a decision on one core; ``fast``
about a tenth of that.

>>> Budget.of({})
Budget(samples=40, deals=48, pool=3, mode='auto', score_from=4, confidence=1.5)
>>> Budget.of({"fast": ""}).samples, Budget.of({"samples": "12", "mode": "points"}).mode
(6, 'points')
>>> Budget.of({"samples": "none"})
Traceback (most recent call last):
...
ValueError: expert option samples must be a whole number from 1, not 'none'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

#: The play modes: card points all the hand, the written score all the hand, or card
#: points in the early tricks and the written score from trick ``score_from`` on.
MODES: Final = ("points", "score", "auto")


@dataclass(frozen=True, slots=True)
class Budget:
    """``samples`` worlds solved for a card; ``deals`` deals played out for a bid or a
    double; ``pool`` worlds drawn for each one kept (the calls and plays of the others pick
    the likely ones); ``mode`` what the solver maximises (:data:`MODES`); ``score_from``
    the first trick (0-based) played for the written score in ``auto`` mode."""

    samples: int = 40
    deals: int = 48
    pool: int = 3
    mode: str = "auto"
    score_from: int = 4
    confidence: float = 1.5

    @classmethod
    def of(cls, options: Mapping[str, str]) -> Budget:
        """The budget that ``options`` ask for: a preset word (``fast``, ``default``) and
        ``key=value`` settings of the fields, applied after it."""
        budget = cls()
        for word, preset in PRESETS.items():
            if word in options:
                budget = preset
        changes: dict[str, int | float | str] = {}
        for key, value in options.items():
            if key in PRESETS:
                continue
            if key == "mode":
                if value not in MODES:
                    raise ValueError(f"expert option mode must be one of {', '.join(MODES)}")
                changes[key] = value
            elif key in ("samples", "deals", "pool", "score_from"):
                changes[key] = _whole(key, value, 0 if key == "score_from" else 1)
            elif key == "confidence":
                changes[key] = _number(key, value)
            else:
                known = ", ".join((*PRESETS, *FIELDS))
                raise ValueError(f"unknown expert option {key!r} (known: {known})")
        return dataclasses.replace(budget, **changes)  # type: ignore[arg-type]


def _whole(key: str, text: str, least: int) -> int:
    if not text.isdigit() or int(text) < least:
        raise ValueError(f"expert option {key} must be a whole number from {least}, not {text!r}")
    return int(text)


def _number(key: str, text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0:
        raise ValueError(f"expert option {key} must be a number from 0, not {text!r}")
    return value


#: The options that set a field of the budget.
FIELDS: Final = ("samples", "deals", "pool", "mode", "score_from", "confidence")

#: Named budgets: ``fast`` thinks about a tenth of the default.
PRESETS: Final = {
    "default": Budget(),
    "fast": Budget(samples=6, deals=10, pool=2),
}
