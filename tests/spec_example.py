"""The example hand of docs/records.md, shared by the tests that replay it."""

from __future__ import annotations

import json
from typing import Any

DECK = (
    "9c 8d Th 9h Jc 8s Qs Js As 7d 8h Td Kc Qh Kd 7s Qd "
    "Qc Ks Jh Jd Ad Kh Ah Ts Ac 9s 7c 8c Tc 9d 7h"
)
ACTIONS = [
    "N pass", "W pass", "S hokum", "E pass",
    "N pass", "W pass",
    "S pass",
    "W pass", "E pass",
    "N declare sira", "N play 8d", "W play Kd", "S play Jd", "E play 9d",
    "S play Qd", "E play Td", "N play Ad", "W play Jc",
    "N play 9c", "W play Ac", "S play 8c", "E play Tc",
    "W play Ts", "S play As", "E play Ks", "N play Kc",
    "S play Js", "E play 7d", "N play Qh", "W play 7s",
    "E play 8h", "N play Th", "W play 9h", "S play 7c",
    "N play Kh", "W play 8s", "S play Qs", "E play Jh",
    "N play Ah", "W play 9s", "S play Qc", "E play 7h",
]  # fmt: skip
#: The hand's entry in ``baloot replay --json``, as docs/records.md prints it.
HAND_JSON: dict[str, Any] = {
    "dealer": "E",
    "outcome": "played",
    "contract": {"kind": "hokum", "trump": "d", "declarer": "S", "level": 1, "locked": False},
    "tricks": {"NS": 6, "EW": 2},
    "card_points": {"NS": 136, "EW": 26},
    "projects": {"NS": ["sira"], "EW": []},
    "baloot": {"NS": 0, "EW": 0},
    "made": True,
    "kaboot": None,
    "score": {"NS": 15, "EW": 3},
}
#: The whole output of ``baloot replay --json`` for the example.
SUMMARY_JSON: dict[str, Any] = {
    "hands": [HAND_JSON],
    "totals": {"NS": 15, "EW": 3},
    "winner": None,
}


def record_text(actions: list[str], deck: str = DECK, extra: str = "") -> str:
    """A one-hand TOML record of ``deck`` (by default the example's) with ``actions``;
    ``extra`` lines go before the dealer."""
    return (
        f'format = "baloot/1"\nrules = "classic"\n{extra}dealer = "E"\ndeck = "{deck}"\n'
        f"actions = {json.dumps(actions)}\n"
    )
