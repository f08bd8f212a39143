"""The variant flags of R14 as one frozen value, with the ``classic`` and ``federation`` presets.

A flag that is not a boolean holds a member of its :class:`~enum.StrEnum` (:data:`FLAG_ENUMS`),
which equals its string, so records and JSON write the plain value.

>>> Rules.classic().must_undertrump
False
>>> Rules.federation().hundred_sequence_beats_four_kind
True
>>> Rules.from_mapping({"preset": "classic", "baloot_on_loss": "keep"}).baloot_on_loss
<BalootOnLoss.KEEP: 'keep'>
>>> Rules.classic().replace(kawesh_enabled="yes")
Traceback (most recent call last):
...
baloot.RulesError: rule flag kawesh_enabled takes true or false, not 'yes'
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from baloot.core.errors import RulesError


class FirstLead(StrEnum):
    """Who leads the first trick (``first_lead``)."""

    DEALER_RIGHT = "dealer_right"
    DECLARER = "declarer"


class AshkalMode(StrEnum):
    """When Ashkal may be called (``ashkal_mode``)."""

    AFTER_PASSES = "after_passes"
    OVER_OPPONENT_HOKUM = "over_opponent_hokum"
    BOTH = "both"


class SunDoubleRule(StrEnum):
    """On which match totals a Sun may be doubled (``sun_double_rule``, R8.4)."""

    EITHER_SIDE_GT_LT = "either_side_gt_lt"
    DECLARER_GT100_DOUBLER_LT100 = "declarer_gt100_doubler_lt100"
    DECLARER_GT100_DOUBLER_LE100 = "declarer_gt100_doubler_le100"


class BalootOnLoss(StrEnum):
    """What becomes of the loser's Baloot in a lost or doubled hand (``baloot_on_loss``)."""

    TRANSFER = "transfer"
    KEEP = "keep"
    VOID = "void"


class ProjectMultiplier(StrEnum):
    """How doubling multiplies scored projects (``project_multiplier``)."""

    X2 = "x2"
    LEVEL = "level"
    X2_AT_DOUBLE_X1_ABOVE = "x2_at_double_x1_above"


class DoubledExactTie(StrEnum):
    """Who wins an exact tie of a doubled hand (``doubled_exact_tie``)."""

    DIGIT_RULE = "digit_rule"
    LAST_CALLER_LOSES = "last_caller_loses"


class KabootProjects(StrEnum):
    """Which projects count in an Al-kaboot (``kaboot_projects``)."""

    OWN_SCORED = "own_scored"
    ALL = "all"
    NONE = "none"


class WinComparison(StrEnum):
    """What decides who won a hand (``win_comparison``)."""

    GAME_POINTS = "game_points"
    RAW_POINTS = "raw_points"


#: The value type of every flag that is not a boolean (R14).
FLAG_ENUMS: Final[dict[str, type[StrEnum]]] = {
    "first_lead": FirstLead,
    "ashkal_mode": AshkalMode,
    "sun_double_rule": SunDoubleRule,
    "baloot_on_loss": BalootOnLoss,
    "project_multiplier": ProjectMultiplier,
    "doubled_exact_tie": DoubledExactTie,
    "kaboot_projects": KabootProjects,
    "win_comparison": WinComparison,
}

#: The allowed values of every flag that is not a boolean (R14).
CHOICES: Final[dict[str, tuple[str, ...]]] = {
    name: tuple(choice) for name, choice in FLAG_ENUMS.items()
}


@dataclass(frozen=True, slots=True)
class Rules:
    """One field per variant flag of R14; the defaults are the ``classic`` preset."""

    first_lead: FirstLead = FirstLead.DEALER_RIGHT
    hokum_bidder_may_upgrade_to_sun: bool = True
    ashkal_mode: AshkalMode = AshkalMode.AFTER_PASSES
    ashkal_on_ace: bool = False
    ashkal_round2: bool = False
    ace_hokum_sun_only_p1: bool = False
    third_round_on_ace: bool = False
    kawesh_enabled: bool = True
    kawesh_same_dealer: bool = False
    lock_persists_through_escalation: bool = False
    sun_double_rule: SunDoubleRule = SunDoubleRule.EITHER_SIDE_GT_LT
    must_undertrump: bool = False
    partner_led_must_trump: bool = True
    hundred_sequence_beats_four_kind: bool = False
    trump_sequence_priority: bool = False
    long_sequence_split: bool = False
    baloot_blocked_by_partial_overlap: bool = False
    baloot_on_loss: BalootOnLoss = BalootOnLoss.TRANSFER
    project_multiplier: ProjectMultiplier = ProjectMultiplier.X2
    doubled_exact_tie: DoubledExactTie = DoubledExactTie.DIGIT_RULE
    kaboot_multiplied: bool = True
    kaboot_projects: KabootProjects = KabootProjects.OWN_SCORED
    win_comparison: WinComparison = WinComparison.GAME_POINTS
    hokum_pair_rounding: bool = False

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            choices = CHOICES.get(field.name)
            if choices is None:
                if not isinstance(value, bool):
                    raise RulesError(f"rule flag {field.name} takes true or false, not {value!r}")
            elif value in choices:
                # A flag read from text holds the plain string; keep its enum member instead.
                object.__setattr__(self, field.name, FLAG_ENUMS[field.name](value))
            else:
                raise RulesError(
                    f"rule flag {field.name} takes one of {', '.join(choices)}, not {value!r}"
                )

    @classmethod
    def classic(cls) -> Rules:
        """The defaults of R14."""
        return CLASSIC

    @classmethod
    def federation(cls) -> Rules:
        """The R14 profile that follows the Saudi federation's regulation."""
        return FEDERATION

    @classmethod
    def preset(cls, name: str) -> Rules:
        """A preset by name: ``classic`` or ``federation``."""
        try:
            return PRESETS[name]
        except KeyError:
            raise RulesError(
                f"unknown rules preset {name!r} (known: {', '.join(PRESETS)})"
            ) from None

    def replace(self, **flags: Any) -> Rules:
        """A copy with some flags changed; an unknown flag is an error."""
        unknown = sorted(set(flags) - FLAG_NAMES)
        if unknown:
            raise RulesError(f"unknown rule flag {unknown[0]!r}")
        return dataclasses.replace(self, **flags)

    @classmethod
    def from_mapping(cls, table: Mapping[str, Any]) -> Rules:
        """Rules from a record's table: an optional ``preset`` and flag values."""
        flags = dict(table)
        preset = flags.pop("preset", "classic")
        if not isinstance(preset, str):
            raise RulesError(f"rules preset must be a name, not {preset!r}")
        return cls.preset(preset).replace(**flags)

    def changes(self, base: Rules | None = None) -> dict[str, Any]:
        """The flags that differ from ``base`` (classic by default).

        >>> Rules.federation().changes()["baloot_on_loss"]
        <BalootOnLoss.KEEP: 'keep'>
        """
        base = CLASSIC if base is None else base
        return {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if getattr(self, f.name) != getattr(base, f.name)
        }

    def name(self) -> str | None:
        """The preset these rules are exactly, or None."""
        for name, preset in PRESETS.items():
            if preset == self:
                return name
        return None

    @classmethod
    def random(cls, rng: random.Random) -> Rules:
        """Rules with every flag drawn at random from its values (for fuzzing and arenas).

        >>> import random
        >>> Rules.random(random.Random(1)) == Rules.random(random.Random(1))
        True
        """
        flags: dict[str, Any] = {
            name: rng.choice(CHOICES.get(name, (False, True))) for name in sorted(FLAG_NAMES)
        }
        return cls().replace(**flags)

    def with_flag_text(self, assignment: str) -> Rules:
        """A copy with one ``FLAG=VALUE`` assignment from a command line applied.

        >>> Rules.classic().with_flag_text("must_undertrump=true").must_undertrump
        True
        """
        name, sep, text = assignment.partition("=")
        name = name.strip()
        text = text.strip()
        if not sep or not name:
            raise RulesError(f"a rule is written FLAG=VALUE, not {assignment!r}")
        if name not in FLAG_NAMES:
            raise RulesError(f"unknown rule flag {name!r}")
        value: Any = text
        if name not in CHOICES:
            if text.lower() not in ("true", "false"):
                raise RulesError(f"rule flag {name} takes true or false, not {text!r}")
            value = text.lower() == "true"
        return self.replace(**{name: value})


FLAG_NAMES: Final = frozenset(f.name for f in dataclasses.fields(Rules))
CLASSIC: Final = Rules()
FEDERATION: Final = Rules(
    hundred_sequence_beats_four_kind=True,
    baloot_on_loss=BalootOnLoss.KEEP,
    doubled_exact_tie=DoubledExactTie.LAST_CALLER_LOSES,
    sun_double_rule=SunDoubleRule.DECLARER_GT100_DOUBLER_LE100,
    ace_hokum_sun_only_p1=True,
    ashkal_mode=AshkalMode.OVER_OPPONENT_HOKUM,
)
PRESETS: Final = {"classic": CLASSIC, "federation": FEDERATION}
