"""Renaming the suits: the same game under other names, as gathers on the observation and on
the action space.

Suits are alike in a Sun, and the three plain suits alike in a Hokum: a position whose suits
are renamed (the trump kept) is the same game, and its actions' values are the renamed ones.
Training sees each example under a random renaming (``scripts/train_neural.py``): the data
grow up to 24-fold for nothing.

>>> observation, actions, allowed = renamings()
>>> observation.shape, actions.shape, allowed.shape
((24, 988), (24, 100), (5, 24))
>>> sorted(set(allowed[1].tolist())) == [k for k, p in enumerate(PERMUTATIONS) if p[0] == 0]
True
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from functools import cache
from typing import Any, Final

import numpy as np

from baloot.rl.action_space import EKKA_PLAYS, NUM_ACTIONS, PLAYS, TRUMPS
from baloot.rl.observation import LAYOUT, OFFSETS, SIZE

#: The 24 renamings: suit ``s`` becomes ``PERMUTATIONS[k][s]``.
PERMUTATIONS: Final = tuple(itertools.permutations(range(4)))
#: The slices of the observation indexed by card (blocks of 32), then by suit (blocks of 4).
CARD_SLICES: Final = (
    "own_cards",
    "exposed",
    "played",
    "trick",
    "shown",
    "known_excluded",
    "known_trump_below",
    "known_holds",
)
SUIT_SLICES: Final = ("trump", "known_void")

Table = np.ndarray[Any, np.dtype[np.int64]]
Floats = np.ndarray[Any, np.dtype[np.float32]]


@cache
def renamings() -> tuple[Table, Table, Table]:
    """For each renaming, where each entry of the renamed observation and of the renamed
    action space comes from (``renamed = original[table[k]]``); and for a Sun (row 0) and a
    Hokum of each trump (rows 1–4), 24 renamings that keep the game (all of them in a Sun; in
    a Hokum the six that keep the trump, each four times)."""
    sizes = {part.name: part.size for part in LAYOUT}
    observation = np.tile(np.arange(SIZE), (len(PERMUTATIONS), 1))
    actions = np.tile(np.arange(NUM_ACTIONS), (len(PERMUTATIONS), 1))
    for k, perm in enumerate(PERMUTATIONS):
        for name in CARD_SLICES:
            for block in range(OFFSETS[name], OFFSETS[name] + sizes[name], 32):
                for suit, rank in itertools.product(range(4), range(8)):
                    observation[k, block + perm[suit] * 8 + rank] = block + suit * 8 + rank
        for name in SUIT_SLICES:
            for block in range(OFFSETS[name], OFFSETS[name] + sizes[name], 4):
                for suit in range(4):
                    observation[k, block + perm[suit]] = block + suit
        for base in (PLAYS, EKKA_PLAYS):
            for suit, rank in itertools.product(range(4), range(8)):
                actions[k, base + perm[suit] * 8 + rank] = base + suit * 8 + rank
        for suit in range(4):
            actions[k, TRUMPS + perm[suit]] = TRUMPS + suit
    allowed = np.zeros((5, len(PERMUTATIONS)), np.int64)
    allowed[0] = np.arange(len(PERMUTATIONS))
    for trump in range(4):
        keeping = [k for k, perm in enumerate(PERMUTATIONS) if perm[trump] == trump]
        allowed[trump + 1] = np.tile(keeping, len(PERMUTATIONS) // len(keeping))
    for table in (observation, actions, allowed):
        table.flags.writeable = False
    return observation, actions, allowed


def contracts(x: np.ndarray[Any, np.dtype[np.float32]]) -> Table:
    """Each observation's (rows of ``x``) row of ``allowed``: 0 for a Sun (or no contract
    yet), 1–4 for a Hokum of spades, hearts, diamonds, clubs."""
    hokum = x[..., OFFSETS["contract_kind"]] > 0
    suit = x[..., OFFSETS["trump"] : OFFSETS["trump"] + 4].argmax(axis=-1)
    return np.where(hokum, suit + 1, 0).astype(np.int64)


def averaged(network: Callable[[Floats], Floats], x: Floats, count: int) -> Floats:
    """The network's outputs for the observation ``x`` averaged over ``count`` renamings of
    the suits that keep its game (the first ``count`` of its contract's, without repeats),
    each output read back under the original names: the same position seen under other
    names, so that the network's errors of one naming average out.

    >>> x = np.zeros(SIZE, np.float32)
    >>> identity = lambda rows: rows[..., : NUM_ACTIONS].copy()
    >>> bool((averaged(identity, x, 6) == identity(x)).all())
    True
    """
    observation, actions, allowed = renamings()
    kind = int(contracts(x))
    chosen = list(dict.fromkeys(allowed[kind].tolist()))[:count]
    outputs = network(x[observation[chosen]])
    # Action a of a renamed row is action actions[k][a] of the original.
    back = np.empty_like(outputs)
    for row, k in enumerate(chosen):
        back[row, actions[k]] = outputs[row]
    found: Floats = back.mean(axis=0)
    return found
