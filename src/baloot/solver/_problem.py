"""A play position as the search sees it: plain ints and tuples, read from a Hand.

Both searches (the compiled one and the pure Python one) take a :class:`Problem`: the cards,
the trick in progress, the rule flags of play, and for the written score the utility tables of
:mod:`baloot.solver._tables` with what the trick-1 declarations may still change. Everything
about projects comes from the engine: which projects a seat may declare (its options, each
valued by its best project), how declared projects compare (the engine's keys, here as ranks),
which team scores them and who is credited with Baloot.

>>> from baloot.core.cards import CARDS
>>> from baloot.core.hand import Hand
>>> hand = Hand.from_deck(" ".join(c.text for c in CARDS), dealer="E")
>>> _ = hand.apply("N sun")
>>> problem = Problem.of(hand, score=False)
>>> problem.to_act, problem.total, problem.trump
(0, 130, -1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from baloot.core._state import HOKUM, PLAYING, SUN
from baloot.core.cards import card_points
from baloot.core.hand import Hand
from baloot.core.seats import Team
from baloot.solver._tables import HOKUM_TOTAL, SUN_TOTAL, utility

_NO_TABLE: Final = (0,) * 0


@dataclass(frozen=True, slots=True)
class Problem:
    """One play position in ints: what both searches take.

    ``outcome`` is the index of the utility table in force once trick 1 is over (0: nobody
    scores projects, 1: NS, 2: EW), or -1 while trick-1 declarations may still change it;
    ``declared`` the rank of each seat's declared best project (-1 for none); ``options`` the
    ranks a seat may still declare (its declaration is part of the search when ``pending``
    has its bit); ``order`` breaks a tie between equal projects (R10.6: earlier from P1).
    """

    hands: tuple[int, int, int, int]
    trick: tuple[int, ...]
    leader: int
    ekka: bool
    gone: int
    trick_no: int
    ns_points: int
    flags: int
    trump: int
    locked: bool
    partner_led_must_trump: bool
    must_undertrump: bool
    total: int
    score: bool
    tables: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    outcome: int
    declared: tuple[int, int, int, int]
    options: tuple[tuple[int, ...], ...]
    order: tuple[int, int, int, int]
    pending: int

    @property
    def to_act(self) -> int:
        """The seat to play."""
        return (self.leader + len(self.trick)) & 3

    @classmethod
    def of(cls, hand: Hand, *, score: bool, root_declares: bool = True) -> Problem:
        """The problem of ``hand``, in its play phase; ``score`` for the written score (else
        card points). ``root_declares``: the seat to act may still declare (else its
        declaration is settled as none, as when it plays a card now)."""
        if hand._phase is not PLAYING:
            raise ValueError(f"the solver needs a hand in its play phase, not {hand.phase.value}")
        trump = hand._trump if hand._kind == HOKUM else -1
        rules = hand._rules
        won_ns, won_ew = hand._won
        flags = (1 if won_ns else 0) | (2 if won_ew else 0)
        ns_points = card_points(won_ns, None if trump < 0 else trump)
        total = SUN_TOTAL if hand._kind == SUN else HOKUM_TOTAL
        tables: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] = (
            _NO_TABLE,
            _NO_TABLE,
            _NO_TABLE,
        )
        declared = (-1, -1, -1, -1)
        options: tuple[tuple[int, ...], ...] = ((), (), (), ())
        order = tuple(hand._order.index(s) for s in range(4))
        pending = 0
        outcome = -1
        if score:
            if hand._trick_no > 0:
                winner = hand._project_winner()
                outcome = 0 if winner < 0 else 1 + (winner & 1)
                reachable = {outcome}
            else:
                declared, options, pending = _declarations(hand, root_declares)
                reachable = {0} if max(declared) < 0 else set()
                for seat in range(4):
                    if declared[seat] >= 0 or pending >> seat & 1:
                        reachable.add(1 + (seat & 1))
            tables = _tables(hand, reachable)
        return cls(
            hands=hand._hands,
            trick=hand._trick,
            leader=hand._leader,
            ekka=hand._ekka,
            gone=hand._gone,
            trick_no=hand._trick_no,
            ns_points=ns_points,
            flags=flags,
            trump=trump,
            locked=hand._locked,
            partner_led_must_trump=rules.partner_led_must_trump,
            must_undertrump=rules.must_undertrump,
            total=total,
            score=score,
            tables=tables,
            outcome=outcome,
            declared=declared,
            options=options,
            order=(order[0], order[1], order[2], order[3]),
            pending=pending,
        )


def _tables(
    hand: Hand, reachable: set[int]
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """The utility table of each outcome of the declarations that can still happen (the
    others are left empty): nobody, NS or EW scores the projects. What a team scores and who
    keeps Baloot are the engine's, as the result of a played hand reads them
    (``_outcome.Results._played_result``)."""
    sun = hand._kind == SUN
    found: list[tuple[int, ...]] = []
    for outcome, team in enumerate((None, Team.NS, Team.EW)):
        if outcome not in reachable:
            found.append(_NO_TABLE)
            continue
        if team is None:
            points = raw = 0
            holder = hand._baloot_seat(-1)
        else:
            projects = [p for s in (int(team), int(team) + 2) for p in hand._reading(s)]
            points = sum(p.kind.game_points(sun) for p in projects)
            raw = sum(p.kind.raw for p in projects)
            holder = hand._baloot_seat(int(team))
        baloot = [0, 0]
        if holder >= 0:
            baloot[holder & 1] = 2
        found.append(
            utility(
                hand._rules,
                sun=sun,
                declarers=Team(hand._declarer & 1),
                level=hand._level,
                project_team=team,
                project_points=points,
                project_raw=raw,
                baloot=(baloot[0], baloot[1]),
            )
        )
    return (found[0], found[1], found[2])


def _declarations(
    hand: Hand, root_declares: bool
) -> tuple[tuple[int, int, int, int], tuple[tuple[int, ...], ...], int]:
    """In trick 1: each seat's declared rank, the ranks each seat still to play may declare,
    and the seats whose choice is part of the search.

    A rank orders the engine's comparison keys of the best project of each declaration (the
    winner of R10.6 is the highest rank, a tie going to the seat earlier from P1). The options
    are the engine's own declarations of a seat, each valued by the project the engine would
    take for it, read on a copy where nobody has declared, so that none is filtered out yet.
    """
    played = {(hand._leader + i) & 3 for i in range(len(hand._trick))}
    scratch = hand.copy()
    scratch._declared = (None, None, None, None)
    keys: dict[int, list[tuple[int, int, int, int]]] = {}
    for seat in range(4):
        if seat in played or hand._declared[seat] is not None:
            continue
        if seat == hand._to_act and not root_declares:
            continue
        if not hand._reading(seat):
            continue
        tops = set()
        for action in scratch._declaration_options(seat):
            chosen = scratch._check_declaration(action)
            tops.add(scratch._project_key(chosen[0]))
        keys[seat] = sorted(tops)
    declared_keys = {
        seat: hand._project_key(projects[0])
        for seat, projects in enumerate(hand._declared)
        if projects
    }
    ranks = sorted({*declared_keys.values(), *(k for ks in keys.values() for k in ks)})
    rank = {key: i for i, key in enumerate(ranks)}
    declared = tuple(rank[declared_keys[s]] if s in declared_keys else -1 for s in range(4))
    options = tuple(tuple(rank[k] for k in keys.get(s, ())) for s in range(4))
    pending = sum(1 << s for s in keys)
    return (declared[0], declared[1], declared[2], declared[3]), options, pending
