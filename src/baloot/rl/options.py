"""The options every environment takes: the rules (a preset and variant flags) and the reward.

>>> rules_of(None, {"must_undertrump": True}).must_undertrump
True
>>> rules_of("federation", {}).name()
'federation'
>>> reward_of("points")
Traceback (most recent call last):
...
ValueError: reward is 'hand' or 'match', not 'points'
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from baloot.core.rules import Rules


class Reward(StrEnum):
    """What an episode is and what it pays.

    ``hand``: one hand; each seat is paid its team's written score minus the other team's
    when it ends (0 for an annulled hand). ``match``: a match to 152; each seat is paid +1
    when its team wins the match and −1 when it loses.
    """

    HAND = "hand"
    MATCH = "match"


def reward_of(value: Reward | str) -> Reward:
    """The reward option read; a ValueError in one line for anything else."""
    try:
        return Reward(value)
    except ValueError:
        raise ValueError(f"reward is 'hand' or 'match', not {value!r}") from None


def rules_of(rules: Rules | str | None, flags: Mapping[str, Any]) -> Rules:
    """The rules from a :class:`Rules` value or a preset name (None: ``classic``) with
    variant flags set on top; an unknown flag or value is a :class:`~baloot.RulesError`."""
    if rules is None:
        base = Rules.classic()
    elif isinstance(rules, Rules):
        base = rules
    elif isinstance(rules, str):
        base = Rules.preset(rules)
    else:
        raise TypeError(f"rules is a Rules value or a preset name, not {type(rules).__name__}")
    return base.replace(**flags) if flags else base
