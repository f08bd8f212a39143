"""The variant flags of R14 as one frozen value, with the ``classic`` and ``federation`` presets.

>>> Rules.classic().must_undertrump
False
>>> Rules.federation().hundred_sequence_beats_four_kind
True
>>> Rules.from_mapping({"preset": "classic", "baloot_on_loss": "keep"}).baloot_on_loss
'keep'
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
from typing import Any, Final

from baloot.core.errors import RulesError

#: The allowed values of every flag that is not a boolean (R14).
CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "first_lead": ("dealer_right", "declarer"),
    "ashkal_mode": ("after_passes", "over_opponent_hokum", "both"),
    "sun_double_rule": (
        "either_side_gt_lt",
        "declarer_gt100_doubler_lt100",
        "declarer_gt100_doubler_le100",
    ),
    "baloot_on_loss": ("transfer", "keep", "void"),
    "project_multiplier": ("x2", "level", "x2_at_double_x1_above"),
    "doubled_exact_tie": ("digit_rule", "last_caller_loses"),
    "kaboot_projects": ("own_scored", "all", "none"),
    "win_comparison": ("game_points", "raw_points"),
}


@dataclass(frozen=True, slots=True)
class Rules:
    """One field per variant flag of R14; the defaults are the ``classic`` preset."""

    first_lead: str = "dealer_right"
    hokum_bidder_may_upgrade_to_sun: bool = True
    ashkal_mode: str = "after_passes"
    ashkal_on_ace: bool = False
    ashkal_round2: bool = False
    ace_hokum_sun_only_p1: bool = False
    third_round_on_ace: bool = False
    kawesh_enabled: bool = True
    kawesh_same_dealer: bool = False
    lock_persists_through_escalation: bool = False
    sun_double_rule: str = "either_side_gt_lt"
    must_undertrump: bool = False
    partner_led_must_trump: bool = True
    hundred_sequence_beats_four_kind: bool = False
    trump_sequence_priority: bool = False
    long_sequence_split: bool = False
    baloot_blocked_by_partial_overlap: bool = False
    baloot_on_loss: str = "transfer"
    project_multiplier: str = "x2"
    doubled_exact_tie: str = "digit_rule"
    kaboot_multiplied: bool = True
    kaboot_projects: str = "own_scored"
    win_comparison: str = "game_points"
    hokum_pair_rounding: bool = False

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            choices = CHOICES.get(field.name)
            if choices is None:
                if not isinstance(value, bool):
                    raise RulesError(f"rule flag {field.name} takes true or false, not {value!r}")
            elif value not in choices:
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
        'keep'
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
    baloot_on_loss="keep",
    doubled_exact_tie="last_caller_loses",
    sun_double_rule="declarer_gt100_doubler_le100",
    ace_hokum_sun_only_p1=True,
    ashkal_mode="over_opponent_hokum",
)
PRESETS: Final = {"classic": CLASSIC, "federation": FEDERATION}
