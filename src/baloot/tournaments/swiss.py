"""A Swiss round's pairing of pairs, by maximum-weight matching, and the standings' tie-breaks.

The pairing is one maximum-weight matching (networkx's blossom algorithm) over every pair
that plays the round and a stand-in for the bye, the weight of each possible table built
from costs ranked strictly one above the next, so that no amount of a lower cost ever buys
a higher one (docs/tournaments.md): the same inputs and seed always give the same round.

>>> field = [Entrant("a", 1), Entrant("b", 2), Entrant("c", 3)]
>>> first = pair_round(field, [], 1)
>>> [(t.ns, t.ew) for t in first.tables], first.bye
([('a', 'b')], 'c')
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import networkx as nx

from baloot.tournaments.scoring import Format

#: The node that stands for the bye in the matching.
BYE = "\x00bye"


@dataclass(frozen=True)
class Entrant:
    """A pair entered: its id, its seed (1 the strongest), the first round it may play, and
    the first round it no longer plays if it withdrew (``None``: it plays on)."""

    id: str
    seed: int
    joined: int = 1
    withdrawn: int | None = None

    def plays(self, round_no: int) -> bool:
        """Whether the pair is paired in that round: entered by then, not yet withdrawn.

        >>> Entrant("a", 1, joined=2, withdrawn=4).plays(1), Entrant("a", 1, 2, 4).plays(3)
        (False, True)
        """
        return self.joined <= round_no and (self.withdrawn is None or round_no < self.withdrawn)


@dataclass(frozen=True)
class Game:
    """A round's table and its points, or a bye (``ew`` is ``None``, ``ns`` the pair)."""

    round: int
    ns: str
    ew: str | None
    ns_points: float = 0.0
    ew_points: float = 0.0


@dataclass(frozen=True)
class Settings:
    """A tournament's scoring of what is not played: a bye's points, and a late entrant's
    points for each round it missed (0 by default: it enters level with the last)."""

    format: Format = Format.MATCH
    bye_points: float | None = None
    late_points: float = 0.0

    @property
    def bye(self) -> float:
        """A bye's points: a match won (2) or 12 VP (a fair win) unless set otherwise.

        >>> Settings().bye, Settings(Format.DUPLICATE).bye, Settings(bye_points=1).bye
        (2, 12, 1)
        """
        if self.bye_points is not None:
            return self.bye_points
        return 2 if self.format is Format.MATCH else 12


@dataclass(frozen=True)
class Table:
    """A table of a round: the pair that sits North–South and the one East–West."""

    ns: str
    ew: str


@dataclass(frozen=True)
class Pairing:
    """A round's tables, the best-placed first, and the pair with the bye if any."""

    round: int
    tables: tuple[Table, ...]
    bye: str | None


@dataclass(frozen=True)
class Standing:
    """A pair's place: its score and tie-breaks, in the order they are compared."""

    id: str
    score: float
    buchholz: float
    sonneborn_berger: float
    seed: int


def scores(
    entrants: Sequence[Entrant], games: Iterable[Game], settings: Settings = Settings()
) -> dict[str, float]:
    """Each pair's score: its games' points, its byes', and its rounds missed by entering late.

    >>> field = [Entrant("a", 1), Entrant("b", 2, joined=3)]
    >>> scores(field, [Game(1, "a", None, 2), Game(2, "a", None, 2)], Settings(late_points=1))
    {'a': 4.0, 'b': 2.0}
    """
    total = {e.id: settings.late_points * (e.joined - 1) for e in entrants}
    for game in games:
        total[game.ns] += game.ns_points
        if game.ew is not None:
            total[game.ew] += game.ew_points
    return {key: float(round(value, 2)) for key, value in total.items()}


def standings(
    entrants: Sequence[Entrant], games: Sequence[Game], settings: Settings = Settings()
) -> list[Standing]:
    """The pairs in order: score, Buchholz, Sonneborn–Berger, then seed.

    Buchholz sums the opponents' scores (a bye counts the pair's own score, so that it
    neither helps nor hurts); Sonneborn–Berger sums each opponent's score times the share
    of that table's points the pair took.

    >>> field = [Entrant("a", 1), Entrant("b", 2), Entrant("c", 3)]
    >>> games = [Game(1, "a", "b", 2, 0), Game(1, "c", None, 2), Game(2, "c", "a", 2, 0)]
    >>> [(s.id, s.score, s.buchholz) for s in standings(field, games)]
    [('c', 4.0, 6.0), ('a', 2.0, 4.0), ('b', 0.0, 2.0)]
    """
    score = scores(entrants, games, settings)
    buchholz = dict.fromkeys(score, 0.0)
    berger = dict.fromkeys(score, 0.0)
    total = settings.format.total
    for game in games:
        if game.ew is None:
            buchholz[game.ns] += score[game.ns]
            continue
        for me, them, mine in (
            (game.ns, game.ew, game.ns_points),
            (game.ew, game.ns, game.ew_points),
        ):
            buchholz[me] += score[them]
            berger[me] += score[them] * mine / total
    rows = [
        Standing(e.id, score[e.id], round(buchholz[e.id], 2), round(berger[e.id], 2), e.seed)
        for e in entrants
    ]
    return sorted(rows, key=lambda s: (-s.score, -s.buchholz, -s.sonneborn_berger, s.seed, s.id))


def _draw(seed: int, key: str) -> int:
    """A number fixed by the seed and a pair's id: the last tie-break of the pairing order."""
    return int.from_bytes(hashlib.sha256(f"{seed}:{key}".encode()).digest()[:8], "big")


def pair_round(
    entrants: Sequence[Entrant],
    games: Sequence[Game],
    round_no: int,
    *,
    seed: int = 0,
    settings: Settings = Settings(),
) -> Pairing:
    """Round ``round_no``'s tables among the pairs that play it, and its bye if they are odd.

    Costs, each outranking all of the next: (1) a second bye; (2) a rematch; (3) the bye
    not given to the lowest-placed pair; (4) the square of the two pairs' score difference;
    (5) within a score group, a table other than the top half's n-th against the bottom
    half's n-th; (6) two pairs that both want the same direction.

    >>> field = [Entrant(x, i) for i, x in enumerate("abcd", 1)]
    >>> one = pair_round(field, [], 1)
    >>> [(t.ns, t.ew) for t in one.tables]
    [('a', 'c'), ('d', 'b')]
    """
    playing = [e for e in entrants if e.plays(round_no)]
    score = scores(entrants, games, settings)
    order = sorted(playing, key=lambda e: (-score[e.id], e.seed, _draw(seed, e.id)))
    index = {e.id: i for i, e in enumerate(order)}
    met: Counter[frozenset[str]] = Counter()
    byes: Counter[str] = Counter()
    balance: Counter[str] = Counter()
    last: dict[str, int] = {}
    for game in sorted(games, key=lambda g: g.round):
        if game.ew is None:
            byes[game.ns] += 1
            continue
        met[frozenset((game.ns, game.ew))] += 1
        balance[game.ns] += 1
        balance[game.ew] -= 1
        last[game.ns], last[game.ew] = 1, -1
    groups: dict[float, list[str]] = {}
    for e in order:
        groups.setdefault(score[e.id], []).append(e.id)
    place = {
        key: (members.index(key), len(members)) for members in groups.values() for key in members
    }

    def hundredths(x: float) -> int:
        return round(x * 100)

    costs: dict[tuple[str, str], tuple[int, int, int, int, int, int]] = {}
    n = len(order)
    for i, a in enumerate(order):
        for b in order[i + 1 :]:
            repeat = met[frozenset((a.id, b.id))]
            gap = hundredths(score[a.id] - score[b.id]) ** 2
            fold = 0
            if score[a.id] == score[b.id]:
                (pa, size), (pb, _) = place[a.id], place[b.id]
                fold = (abs(pb - pa) - size // 2) ** 2
            want_a, want_b = (
                _wants(balance[a.id], last.get(a.id)),
                _wants(balance[b.id], last.get(b.id)),
            )
            same = int(want_a != 0 and want_a == want_b)
            costs[(a.id, b.id)] = (0, repeat, 0, gap, fold, same)
        if n % 2:
            costs[(a.id, BYE)] = (byes[a.id], 0, n - 1 - i, 0, 0, 0)
    weights = _weights(costs, n)
    graph: nx.Graph[str] = nx.Graph()
    graph.add_nodes_from([e.id for e in order] + ([BYE] if n % 2 else []))
    for (x, y), weight in weights.items():
        graph.add_edge(x, y, weight=weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    bye = None
    tables: list[Table] = []
    for x, y in matching:
        if BYE in (x, y):
            bye = y if x == BYE else x
            continue
        a, b = (x, y) if index[x] < index[y] else (y, x)
        tables.append(_seat(a, b, balance, last, index[a] % 2 == 0))
    tables.sort(key=lambda t: min(index[t.ns], index[t.ew]))
    return Pairing(round_no, tuple(tables), bye)


def _wants(balance: int, last: int | None) -> int:
    """The direction a pair would rather sit: +1 NS, −1 EW, 0 either (it has sat evenly)."""
    if balance:
        return -1 if balance > 0 else 1
    return 0 if last is None else -last


def _seat(a: str, b: str, balance: Counter[str], last: dict[str, int], odd: bool) -> Table:
    """The table's directions: NS to the pair that sat NS less, then to the one that sat EW
    last, then to the better placed (``a``) when it is odd in the order, else the other."""
    key_a = (balance[a], last.get(a, 0))
    key_b = (balance[b], last.get(b, 0))
    if key_a == key_b:
        return Table(a, b) if odd else Table(b, a)
    return Table(b, a) if key_b < key_a else Table(a, b)


def _weights(
    costs: Mapping[tuple[str, str], tuple[int, ...]], n: int
) -> dict[tuple[str, str], int]:
    """The costs as one integer weight each, every rank worth more than all lower ones summed
    over a whole matching, and every weight positive."""
    tables = n // 2 + 1
    ranks = len(next(iter(costs.values()))) if costs else 0
    bases = [1] * ranks
    for r in range(ranks - 1, 0, -1):
        bases[r - 1] = bases[r] * (tables * max(c[r] for c in costs.values()) + 1)
    single = {
        edge: sum(c * base for c, base in zip(cost, bases, strict=True))
        for edge, cost in costs.items()
    }
    top = max(single.values(), default=0) + 1
    return {edge: top - value for edge, value in single.items()}
