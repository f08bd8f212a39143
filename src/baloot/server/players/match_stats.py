"""What a player's profile counts of their matches: the contracts they took and made by kind
(Hokum, Sun, Ashkal), the Kaboots their team won, the projects they declared and their team's
average game points a hand, read from the matches' records as the engine replays them.

Nothing here decides a rule: who took the contract, whether it was made, a Kaboot, the
projects and the game points are the engine's (:func:`baloot.records.replay.replay` and each
hand's :class:`~baloot.core.scoring.HandResult`); a record that does not replay is left out.

>>> empty = statistics([])
>>> empty["contracts"]["ashkal"], empty["hands"], empty["average_points"]
({'taken': 0, 'made': 0}, 0, None)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from baloot.core.actions import Verb
from baloot.core.errors import BalootError
from baloot.core.hand import Hand
from baloot.core.scoring import HandResult
from baloot.core.seats import Seat
from baloot.core.vocabulary import ContractKind, Outcome
from baloot.records.record import loads
from baloot.records.replay import replay

#: The kinds of contract a profile counts, in its order.
KINDS: Final = ("hokum", "sun", "ashkal")


def statistics(games: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """The statistics of the player who sat at each ``(record, seat letter)`` of ``games``:
    ``matches`` and ``hands`` counted, ``contracts`` (kind → taken, made), ``kaboots``,
    ``projects`` and ``average_points`` (their team's game points a hand played out, an
    annulled one left out; one decimal, None before any)."""
    contracts = {kind: {"taken": 0, "made": 0} for kind in KINDS}
    matches = hands = kaboots = projects = points = 0
    for text, letter in games:
        seat = Seat[letter]
        try:
            played = replay(loads(text, check_fair=False))
        except BalootError:
            continue
        matches += 1
        for hand, result in zip(played.hands, played.results, strict=True):
            kind, taker = taken(hand, result)
            if kind is not None and taker is seat:
                contracts[kind]["taken"] += 1
                contracts[kind]["made"] += bool(result.made)
            kaboots += result.kaboot is seat.team
            projects += len(result.declared[seat] or ())
            if result.score is not None and result.outcome is Outcome.PLAYED:
                hands += 1
                points += result.score[seat.team]
    return {
        "matches": matches,
        "hands": hands,
        "contracts": contracts,
        "kaboots": kaboots,
        "projects": projects,
        "average_points": round(points / hands, 1) if hands else None,
    }


def taken(hand: Hand, result: HandResult) -> tuple[str | None, Seat | None]:
    """The kind of the hand's contract (``hokum``, ``sun``, ``ashkal``) and the seat that
    called it; (None, None) without a contract. An Ashkal is a Sun its caller's partner
    plays: the seat that called it took it.

    >>> import random
    >>> hand = Hand.new(rng=random.Random(3))
    >>> _ = hand.apply("N sun")
    >>> taken(hand, hand.result())
    ('sun', <Seat.N: 0>)
    """
    contract = result.contract
    if contract is None:
        return None, None
    if contract.kind is ContractKind.HOKUM:
        return "hokum", contract.declarer
    calls = [a for a in hand.actions if a.verb in (Verb.SUN, Verb.ASHKAL)]
    last = calls[-1] if calls else None
    if last is not None and last.verb is Verb.ASHKAL and last.seat is contract.declarer.partner:
        return "ashkal", last.seat
    return "sun", contract.declarer
