"""Projects (R10): sequences and four of a kind, read from a complete 8-card hand.

A hand's *reading* is its set of disjoint projects with the highest total value (R10.4,
``decisions.md`` #21–#22). Readings are cached by mask, since bots and replays ask for the
same hands again and again.

>>> from baloot.core.cards import CardSet
>>> [str(p) for p in reading(CardSet.parse("As Ks Qs Js Ts Kh Kd Kc").mask, sun=True)]
['hundred:KsKhKdKc', 'sira:QsJsTs']
>>> reading(CardSet.parse("Ah Kh 9h 7s 8d Td Jc 9c").mask, sun=False)
()
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache
from itertools import combinations
from typing import Final

from baloot.core.cards import CARDS, Card, Rank, Suit, iter_bits
from baloot.core.errors import NotationError


class ProjectKind(IntEnum):
    """The four kinds of project, valued by strength (R10.6 step 1)."""

    SIRA = 1
    FIFTY = 2
    HUNDRED = 3
    FOUR_HUNDRED = 4

    @property
    def word(self) -> str:
        """The record word: ``sira``, ``fifty``, ``hundred``, ``four-hundred``."""
        return _WORDS[self - 1]

    @property
    def raw(self) -> int:
        """The raw equivalent of R10.3 (Sira 20 … Four-hundred 200)."""
        return _RAW[self - 1]

    def game_points(self, sun: bool) -> int:
        """Game points in a Sun or Hokum contract (R10.3)."""
        return self.raw // 5 if sun else self.raw // 10

    @classmethod
    def parse(cls, word: str) -> ProjectKind:
        """Read a record word."""
        try:
            return cls(_WORDS.index(word) + 1)
        except ValueError:
            raise NotationError(f"unknown project {word!r}") from None


_WORDS: Final = ("sira", "fifty", "hundred", "four-hundred")
_RAW: Final = (20, 50, 100, 200)


@dataclass(frozen=True, slots=True)
class Project:
    """One project: its kind, its cards, its top card's rank and, for a sequence, its suit."""

    kind: ProjectKind
    mask: int
    top: Rank
    suit: Suit | None

    @property
    def four_of_a_kind(self) -> bool:
        """True for four cards of one rank."""
        return self.suit is None

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards, rank first for four of a kind, suit first for a sequence."""
        return tuple(CARDS[i] for i in _project_order(self.mask))

    def __str__(self) -> str:
        return self.kind.word + ":" + "".join(c.text for c in self.cards)

    def __repr__(self) -> str:
        return f"Project({str(self)!r})"

    def key(self, hundred_sequence_first: bool, trump: int | None) -> tuple[int, int, int, int]:
        """Comparison key of R10.6 steps 1–3 (and the trump priority when ``trump`` is given).

        >>> p = reading(0xFF, sun=False)[0]
        >>> p.kind, p.key(False, None)
        (<ProjectKind.HUNDRED: 3>, (3, 0, 7, 0))
        """
        shape = 0
        if self.kind == ProjectKind.HUNDRED and self.four_of_a_kind != hundred_sequence_first:
            shape = 1
        in_trump = int(trump is not None and self.suit is not None and self.suit == trump)
        return (int(self.kind), shape, 7 - int(self.top), in_trump)


def _project_order(mask: int) -> list[int]:
    """Card indices of a project, rank first for four of a kind, suit first for a sequence."""
    return sorted(iter_bits(mask), key=lambda i: (i & 7, i >> 3))


_RUN_STARTS: Final = 0x3F3F3F3F
_ONE_PER_SUIT: Final = 0x01010101


def may_hold_project(mask: int) -> bool:
    """Cheap test: True if ``mask`` holds three in a row or four of A, K, Q, J or 10."""
    if mask & (mask >> 1) & (mask >> 2) & _RUN_STARTS:
        return True
    return bool(mask & (mask >> 8) & (mask >> 16) & (mask >> 24) & 0x1F)


def _candidates(mask: int, sun: bool, split: bool) -> list[tuple[Project, int]]:
    """Every project the cards could form, each with the id of the run it comes from.

    A run id of -1 marks four of a kind; sequences from one maximal run share an id,
    so that without ``split`` at most one of them is chosen (decisions #22).
    """
    found: list[tuple[Project, int]] = []
    for rank in range(5):
        if (mask >> rank) & _ONE_PER_SUIT == _ONE_PER_SUIT:
            kind = ProjectKind.FOUR_HUNDRED if sun and rank == Rank.ACE else ProjectKind.HUNDRED
            found.append((Project(kind, _ONE_PER_SUIT << rank, Rank(rank), None), -1))
    for suit in range(4):
        byte = (mask >> (8 * suit)) & 0xFF
        start = 0
        while start < 8:
            if not byte >> start & 1:
                start += 1
                continue
            end = start
            while end < 8 and byte >> end & 1:
                end += 1
            if end - start >= 3:
                run_id = suit * 8 + start
                for top in range(start, end - 2):
                    for stop in range(top + 3, end + 1):
                        length = stop - top
                        kind = (
                            ProjectKind.SIRA
                            if length == 3
                            else ProjectKind.FIFTY
                            if length == 4
                            else ProjectKind.HUNDRED
                        )
                        bits = ((1 << length) - 1) << (8 * suit + top)
                        found.append((Project(kind, bits, Rank(top), Suit(suit)), run_id))
            start = end
    return found


@lru_cache(maxsize=1 << 16)
def reading(
    mask: int, sun: bool, split: bool = False, hundred_sequence_first: bool = False
) -> tuple[Project, ...]:
    """The best set of disjoint projects in an 8-card hand, strongest first (R10.4)."""
    if not may_hold_project(mask):
        return ()
    candidates = _candidates(mask, sun, split)

    def strength(p: Project) -> tuple[int, int, int, int]:
        return p.key(hundred_sequence_first, None)

    best: tuple[Project, ...] = ()
    best_rank: tuple[object, ...] = (0,)
    options: list[tuple[Project, ...]] = [(p,) for p, _ in candidates]
    for (a, run_a), (b, run_b) in combinations(candidates, 2):
        if a.mask & b.mask or (run_a == run_b >= 0 and not split):
            continue
        options.append((a, b) if strength(a) >= strength(b) else (b, a))
    for option in options:
        rank = (
            sum(p.kind.raw for p in option),
            strength(option[0]),
            strength(option[1]) if len(option) > 1 else (0, 0, 0, 0),
            sum(p.mask.bit_count() for p in option),
        )
        if rank > best_rank:
            best, best_rank = option, rank
    return best
