"""The collusion screen: each pair of partners' accuracy on blind leads, against everyone
else's, over the stored matches; the pairs far out listed for an operator (``docs/integrity.md``).

A pair is two accounts who sat as partners (North and South, or East and West, both seats
bound in ``seat_players``). Their blind leads (:mod:`baloot.analysis.blind`) are pooled over
every match they played together; their accuracy is compared with that of all the other
pairs' leads by a z-score with the binomial standard error. A pair is listed when it has at
least ``min_hands`` hands with a counted lead and a z-score or an accuracy past the
thresholds. Listing is all the screen does: it changes no rating and punishes nobody.

>>> pair = PairScore(("a", "b"), hands=400, decisions=500, hits=480)
>>> round(pair.accuracy, 2), round(pair.z(0.55), 1)
(0.96, 18.4)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from baloot.analysis.blind import Blind, Budget, blind_decisions
from baloot.core.errors import BalootError
from baloot.records.record import loads
from baloot.server.storage import Store

#: The fewest hands with a counted lead before a pair may be listed.
MIN_HANDS: Final = 300
#: The z-score against the other pairs from which a pair is listed.
Z_LISTED: Final = 3.0
#: The accuracy from which a pair is listed (Hammond's bridge threshold: over 85 % suspicious).
ACCURACY_LISTED: Final = 0.85
#: The stored matches read at a time.
PAGE: Final = 200

#: The screen's budget unless the command names another: 16 worlds, three tricks, seed 0.
DEFAULT_BUDGET: Final = Budget()

#: The bins of the pairs' accuracies the population's histogram counts: tenths.
BINS: Final = 10

#: The partners of each seat.
PARTNER: Final = {"N": "S", "S": "N", "E": "W", "W": "E"}


@dataclass
class PairScore:
    """One pair's blind leads: the two player ids (sorted), the hands with a counted lead,
    the counted leads and those where the card led was a double-dummy best one."""

    players: tuple[str, str]
    hands: int = 0
    decisions: int = 0
    hits: int = 0
    matches: set[str] = field(default_factory=set)

    @property
    def accuracy(self) -> float:
        """The share of counted leads that found a best card (0 with none)."""
        return self.hits / self.decisions if self.decisions else 0.0

    def z(self, rate: float) -> float:
        """How many binomial standard errors the accuracy lies above ``rate``."""
        if not self.decisions:
            return 0.0
        if rate <= 0.0 or rate >= 1.0:
            return 0.0 if self.accuracy == rate else math.copysign(math.inf, self.accuracy - rate)
        return (self.accuracy - rate) / math.sqrt(rate * (1.0 - rate) / self.decisions)


@dataclass(frozen=True)
class Thresholds:
    """When a pair is listed: ``min_hands`` hands, and a z-score of ``z`` or an accuracy of
    ``accuracy`` or more."""

    min_hands: int = MIN_HANDS
    z: float = Z_LISTED
    accuracy: float = ACCURACY_LISTED


@dataclass(frozen=True)
class Screen:
    """A screen's result: every pair's score, the pairs listed with their z-scores, the
    matches read and those that could not be."""

    pairs: list[PairScore]
    listed: list[tuple[PairScore, float, float]]
    matches: int
    unreadable: list[str]
    thresholds: Thresholds
    budget: Budget
    hands: int = 0
    """The hands with at least one counted lead of a pair."""

    @property
    def decisions(self) -> int:
        """The counted leads of all pairs."""
        return sum(pair.decisions for pair in self.pairs)

    @property
    def accuracy(self) -> float:
        """The accuracy of all pairs' counted leads together."""
        hits = sum(pair.hits for pair in self.pairs)
        return hits / self.decisions if self.decisions else 0.0

    def to_json(self) -> dict[str, Any]:
        """The screen as JSON: the population, then the pairs listed."""
        accuracies = [pair.accuracy for pair in self.pairs if pair.decisions]
        mean = sum(accuracies) / len(accuracies) if accuracies else 0.0
        spread = (
            math.sqrt(sum((a - mean) ** 2 for a in accuracies) / (len(accuracies) - 1))
            if len(accuracies) > 1
            else 0.0
        )
        return {
            "population": {
                "matches": self.matches,
                "unreadable": self.unreadable,
                "pairs": len(self.pairs),
                "hands": self.hands,
                "decisions": self.decisions,
                "accuracy": round(self.accuracy, 4),
                "pair_accuracy_mean": round(mean, 4),
                "pair_accuracy_sd": round(spread, 4),
                "histogram": histogram(self.pairs),
            },
            "thresholds": {
                "min_hands": self.thresholds.min_hands,
                "z": self.thresholds.z,
                "accuracy": self.thresholds.accuracy,
            },
            "budget": {
                "worlds": self.budget.worlds,
                "tricks": self.budget.tricks,
                "seed": self.budget.seed,
            },
            "listed": [
                {
                    "players": list(pair.players),
                    "matches": len(pair.matches),
                    "hands": pair.hands,
                    "decisions": pair.decisions,
                    "hits": pair.hits,
                    "accuracy": round(pair.accuracy, 4),
                    "others_accuracy": round(others, 4),
                    "z": round(z, 2) if math.isfinite(z) else None,
                }
                for pair, others, z in self.listed
            ],
        }

    def standings(self) -> list[tuple[PairScore, float, float, bool]]:
        """Every pair with the other pairs' accuracy, its z-score against it and whether it
        is listed: the pairs listed first, as :attr:`listed` has them, then the others, the
        farthest out first."""
        listed = {entry[0].players for entry in self.listed}
        hits = sum(pair.hits for pair in self.pairs)
        rest = [
            (pair, *_against(pair, self.decisions, hits), False)
            for pair in self.pairs
            if pair.players not in listed
        ]
        rest.sort(key=lambda entry: (-entry[2], entry[0].players))
        return [(pair, others, z, True) for pair, others, z in self.listed] + rest


def histogram(pairs: Iterable[PairScore]) -> list[int]:
    """How many of the pairs with a counted lead have an accuracy in each tenth from 0 to 1
    (1 in the last), counted in whole numbers (no tenth is missed by a rounding).

    >>> histogram([PairScore(("a", "b"), 1, 10, 3), PairScore(("c", "d"), 1, 5, 5)])
    [0, 0, 0, 1, 0, 0, 0, 0, 0, 1]
    """
    counts = [0] * BINS
    for pair in pairs:
        if pair.decisions:
            counts[min(BINS - 1, pair.hits * BINS // pair.decisions)] += 1
    return counts


def pairs_of(seats: Mapping[str, str]) -> dict[str, tuple[str, str]]:
    """Each seat whose partner's seat is bound to another account: seat → the pair, sorted.

    >>> pairs_of({"N": "b", "S": "a", "E": "c"})
    {'N': ('a', 'b'), 'S': ('a', 'b')}
    """
    found: dict[str, tuple[str, str]] = {}
    for seat, player in seats.items():
        partner = seats.get(PARTNER[seat])
        if partner is not None and partner != player:
            first, second = sorted((player, partner))
            found[seat] = (first, second)
    return found


def score(
    matches: Iterable[tuple[str, Mapping[str, str], list[Blind]]], thresholds: Thresholds
) -> tuple[list[PairScore], list[tuple[PairScore, float, float]]]:
    """Every pair's score from each match's id, its seats' accounts and its blind leads;
    and the pairs listed, each with the other pairs' accuracy and its z-score against it,
    the farthest out first."""
    pairs: dict[tuple[str, str], PairScore] = {}
    for match_id, seats, blinds in matches:
        partners = pairs_of(seats)
        hands: dict[tuple[str, str], set[int]] = {}
        for blind in blinds:
            players = partners.get(blind.seat.name)
            if players is None:
                continue
            pair = pairs.setdefault(players, PairScore(players))
            pair.decisions += 1
            pair.hits += blind.hit
            pair.matches.add(match_id)
            hands.setdefault(players, set()).add(blind.hand)
        for players, numbers in hands.items():
            pairs[players].hands += len(numbers)
    scored = sorted(pairs.values(), key=lambda pair: pair.players)
    decisions = sum(pair.decisions for pair in scored)
    hits = sum(pair.hits for pair in scored)
    listed: list[tuple[PairScore, float, float]] = []
    for pair in scored:
        if pair.hands < thresholds.min_hands:
            continue
        others, z = _against(pair, decisions, hits)
        if z >= thresholds.z or pair.accuracy >= thresholds.accuracy:
            listed.append((pair, others, z))
    listed.sort(key=lambda entry: (-entry[2], entry[0].players))
    return scored, listed


def _against(pair: PairScore, decisions: int, hits: int) -> tuple[float, float]:
    """The accuracy of the other pairs' leads (of ``decisions`` counted leads in all, with
    ``hits``), and the pair's z-score against it."""
    rest = decisions - pair.decisions
    others = (hits - pair.hits) / rest if rest else pair.accuracy
    return others, pair.z(others)


def screen(
    store: Store,
    thresholds: Thresholds = Thresholds(),
    budget: Budget = DEFAULT_BUDGET,
    progress: Callable[[int], None] | None = None,
) -> Screen:
    """The screen of every finished match kept in ``store`` with at least one pair of
    partners; ``progress`` is told of each match solved."""
    read: list[tuple[str, Mapping[str, str], list[Blind]]] = []
    unreadable: list[str] = []
    for match_id, record in _stored(store):
        seats = store.seat_players_of(match_id)
        if not pairs_of(seats):
            continue
        try:
            blinds = blind_decisions(loads(record), match_id, budget)
        except (BalootError, ValueError):
            unreadable.append(match_id)
            continue
        read.append((match_id, seats, blinds))
        if progress is not None:
            progress(len(read))
    pairs, listed = score(read, thresholds)
    hands = {
        (match_id, blind.hand)
        for match_id, seats, blinds in read
        for blind in blinds
        if blind.seat.name in pairs_of(seats)
    }
    return Screen(pairs, listed, len(read), unreadable, thresholds, budget, len(hands))


def _stored(store: Store) -> Iterable[tuple[str, str]]:
    """Each match over or closed whose record is kept: its id and its record."""
    offset = 0
    while True:
        page = store.history(PAGE, offset)
        for entry in page:
            found = store.match_record(entry["id"])
            if found is not None and found[1] is not None:
                yield entry["id"], found[1]
        if len(page) < PAGE:
            return
        offset += PAGE
