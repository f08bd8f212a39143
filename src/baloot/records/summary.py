"""The JSON of a hand's result and contract, as ``baloot replay --json`` prints them.

Written from the engine's values here, above the engine, so that the engine holds no
rendering: the same objects are the ``result`` and ``contract`` of a seat's view
(``docs/seat-view.md``) and the ``hands`` of a table's match.

>>> import random
>>> from baloot.core.hand import Hand
>>> hand = Hand.new(rng=random.Random(3))
>>> _ = hand.apply("N sun")
>>> contract_json(hand.contract)
{'kind': 'sun', 'trump': None, 'declarer': 'N', 'level': 1, 'locked': False}
"""

from __future__ import annotations

from typing import Final

from baloot.core.scoring import HandResult
from baloot.core.seats import Team
from baloot.core.vocabulary import Contract

#: Project words from the strongest down, the order of ``projects`` in the summary (#24).
_STRENGTH_ORDER: Final = ("four-hundred", "hundred", "fifty", "sira")


def teams_json(pair: tuple[int, int]) -> dict[str, int]:
    """A per-team pair as ``{"NS": …, "EW": …}``.

    >>> teams_json((15, 3))
    {'NS': 15, 'EW': 3}
    """
    return {"NS": pair[0], "EW": pair[1]}


def contract_json(contract: Contract | None) -> dict[str, object] | None:
    """A contract as ``docs/records.md`` writes it, or None."""
    if contract is None:
        return None
    return {
        "kind": contract.kind.value,
        "trump": None if contract.trump is None else contract.trump.letter,
        "declarer": contract.declarer.name,
        "level": contract.level.json,
        "locked": contract.locked,
    }


def hand_json(result: HandResult) -> dict[str, object]:
    """One hand of the summary (``docs/records.md``; #24–#27, #41, #42)."""
    return {
        "dealer": result.dealer.name,
        "outcome": result.outcome.value,
        "contract": contract_json(result.contract),
        "tricks": teams_json(result.tricks),
        "card_points": teams_json(result.card_points),
        "projects": {
            t.name: sorted((p.kind.word for p in result.projects[t]), key=_STRENGTH_ORDER.index)
            for t in Team
        },
        "baloot": teams_json(result.baloot),
        "made": result.made,
        "kaboot": None if result.kaboot is None else result.kaboot.name,
        "score": None if result.score is None else teams_json(result.score),
    }
