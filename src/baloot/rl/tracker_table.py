"""The tracker's table (:mod:`baloot.rl.tracker`): an observation's values with seats and
teams absolute, each seat's private part kept apart; where each slice lies in it, and for
each seat where each value of its observation lies (its gather).

Kept apart from the tracker, which writes the table action by action: here is only the
layout, fixed once at import, and the compiled play (``_tricks.c``) told of it.

>>> import numpy as np
>>> from baloot.rl.observation import SIZE
>>> GATHER.shape == (4, SIZE) and int(GATHER.max()) < TABLE_SIZE
True
>>> int(GATHER[0][OFFSETS["seat"]]) == ONE and int(GATHER[1][OFFSETS["seat"]]) == ZERO
True
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Final

import numpy as np
import numpy.typing as npt

from baloot.rl.action_space import EKKA_PLAYS, NUM_ACTIONS, PLAYS
from baloot.rl.observation import _BIDS, LAYOUT, OFFSETS, SIZE

#: How a slice of the observation is read from the table depends on the set its name is in:
#: one value or block per seat (relative to the observer), per team (own, other), the
#: observer's private part, a block for each other seat; ``seat``, ``bidding`` and
#: ``doubling`` are read apart, and any other slice is the same for every observer.
_SEATS: Final = frozenset(
    {"dealer", "to_act", "question_about", "held", "taker", "opening_passes", "declarer",
     "doubling_passes", "played", "trick", "trick_leader", "trick_words", "declared", "shown"}
)  # fmt: skip
_TEAMS: Final = frozenset({"tricks_won", "card_points", "score"})
_OWN: Final = frozenset({"own_cards", "own_projects"})
_OTHERS: Final = frozenset(
    {"known_excluded", "known_void", "known_no_trump", "known_trump_below", "known_holds",
     "known_kinds"}
)  # fmt: skip


def _table_layout() -> tuple[dict[str, int], int]:
    """Where each slice lies in the table (a seat's or each other's part, for all four), and
    the table's size; two cells at the end hold the constants 0 and 1."""
    at: dict[str, int] = {}
    size = 0
    for part in LAYOUT:
        at[part.name] = size
        if part.name == "seat":
            continue
        if part.name in _OWN:
            size += 4 * part.size
        elif part.name in _OTHERS:
            size += 4 * part.size // 3
        else:
            size += part.size
    return at, size + 2


#: Where each slice lies in the table, and the table's size.
AT, TABLE_SIZE = _table_layout()
#: The cells that hold the constants 0 and 1.
ZERO: Final = TABLE_SIZE - 2
ONE: Final = TABLE_SIZE - 1


def _gather_of(me: int) -> npt.NDArray[np.intp]:
    """For each value of seat ``me``'s observation, its place in the table."""
    index = np.empty(SIZE, np.intp)
    for part in LAYOUT:
        name, size, begin = part.name, part.size, OFFSETS[part.name]
        table = AT[name]
        for j in range(size):
            if name == "seat":
                place = ONE if j == me else ZERO
            elif name in _SEATS:
                width = size // 4
                place = table + ((me + j // width) & 3) * width + j % width
            elif name in _TEAMS:
                place = table + ((me + j) & 1)
            elif name in _OWN:
                place = table + me * size + j
            elif name in _OTHERS:
                width = size // 3
                place = table + ((me + 1 + j // width) & 3) * width + j % width
            elif name == "bidding":
                rnd, rest = divmod(j, 4 * len(_BIDS))
                seat, call = divmod(rest, len(_BIDS))
                place = table + (rnd * 4 + ((me + seat) & 3)) * len(_BIDS) + call
            elif name == "doubling":
                step, seat = divmod(j, 4)
                place = table + step * 4 + ((me + seat) & 3)
            else:
                place = table + j
            index[begin + j] = place
    return index


#: For each seat (by index), where each value of its observation lies in the table.
GATHER: Final = np.stack([_gather_of(me) for me in range(4)])
GATHER.flags.writeable = False


def _compiled() -> ModuleType | None:
    """The compiled play (``_tricks.c``), told where the table's values are; None where it
    was not built (no C compiler at install)."""
    try:
        module = importlib.import_module("baloot.rl._tricks")
    except ImportError:
        return None
    places = (
        "own_cards", "held", "played", "trick_leader", "trick", "trick_words", "to_act",
        "known_excluded", "known_holds", "known_void", "known_no_trump", "known_trump_below",
        "trick_number", "tricks_won", "card_points",
    )  # fmt: skip
    module.configure(tuple(AT[name] for name in places), TABLE_SIZE, PLAYS, EKKA_PLAYS, NUM_ACTIONS)
    return module


#: The compiled play, configured on the table; None where it was not built.
TRICKS: Final = _compiled()
#: Whether the compiled play was built: it then follows the cards of every tracker's hand.
COMPILED: Final = TRICKS is not None
