"""A play position as the search reads it: plain ints and tuples, from a core Position.

Both searches (the compiled one and the pure Python one) take a :class:`Problem`: the cards,
the trick in progress, the rule flags of play, and for the written score the utility tables of
:mod:`baloot.solver._tables` with what the trick-1 declarations may still change. It is read
from the one state to search, :class:`~baloot.core.position.Position`, through its public
face: for the written score, a position taken with its stakes, which say (as the engine has
it) which projects a seat may declare, how declared projects compare, which team scores them
and who is credited with Baloot.

>>> from baloot.core.cards import CARDS
>>> from baloot.core.hand import Hand
>>> hand = Hand.from_deck(" ".join(c.text for c in CARDS), dealer="E")
>>> _ = hand.apply("N sun")
>>> problem = Problem.of(hand.position(), score=False)
>>> problem.to_act, problem.total, problem.trump
(0, 130, -1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from baloot.core.cards import card_points
from baloot.core.position import Position, Stakes
from baloot.core.seats import Team
from baloot.solver._tables import HOKUM_TOTAL, SUN_TOTAL, utility

_NO_TABLE: Final = (0,) * 0
#: The declarations of card-point mode: none, and no order to break a tie between them.
_NO_DECLARATIONS: Final[
    tuple[tuple[int, int, int, int], tuple[tuple[int, ...], ...], tuple[int, int, int, int], int]
] = ((-1, -1, -1, -1), ((), (), (), ()), (0, 1, 2, 3), 0)


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
    def of(cls, position: Position, *, score: bool, root_declares: bool = True) -> Problem:
        """The problem of ``position``, which has a card to play; ``score`` for the written
        score (else card points), which needs the position's stakes. ``root_declares``: the
        seat to act may still declare (else its declaration is settled as none, as when it
        plays a card now)."""
        if position.is_over:
            raise ValueError("the solver needs a position with a card to play")
        stakes = position.stakes
        if score and stakes is None:
            raise ValueError("the written score needs a position taken with its stakes")
        trump = position.trump
        rules = position.rules
        won_ns, won_ew = position.won()
        flags = (1 if won_ns else 0) | (2 if won_ew else 0)
        ns_points = card_points(won_ns, None if trump < 0 else trump)
        total = SUN_TOTAL if trump < 0 else HOKUM_TOTAL
        tables: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] = (
            _NO_TABLE,
            _NO_TABLE,
            _NO_TABLE,
        )
        declared, options, order, pending = _NO_DECLARATIONS
        outcome = -1
        if stakes is not None:
            order = stakes.order
        if score:
            assert stakes is not None
            if position.trick_number > 0:
                winner = stakes.project_winner
                outcome = 0 if winner < 0 else 1 + (winner & 1)
                reachable = {outcome}
            else:
                declared, options, pending = _declarations(
                    stakes, -1 if root_declares else position.to_act
                )
                reachable = {0} if max(declared) < 0 else set()
                for seat in range(4):
                    if declared[seat] >= 0 or pending >> seat & 1:
                        reachable.add(1 + (seat & 1))
            tables = _tables(stakes, reachable)
        return cls(
            hands=position.hands,
            trick=position.trick,
            leader=position.leader,
            ekka=position.led_ekka,
            gone=position.gone,
            trick_no=position.trick_number,
            ns_points=ns_points,
            flags=flags,
            trump=trump,
            locked=position.locked,
            partner_led_must_trump=rules.partner_led_must_trump,
            must_undertrump=rules.must_undertrump,
            total=total,
            score=score,
            tables=tables,
            outcome=outcome,
            declared=declared,
            options=options,
            order=order,
            pending=pending,
        )


def _tables(
    stakes: Stakes, reachable: set[int]
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """The utility table of each outcome of the declarations that can still happen (the
    others are left empty): nobody, NS or EW scores the projects, with the engine's project
    points and Baloot holder of that outcome."""
    found: list[tuple[int, ...]] = []
    for outcome, team in enumerate((None, Team.NS, Team.EW)):
        if outcome not in reachable:
            found.append(_NO_TABLE)
            continue
        points, raw = (0, 0) if team is None else stakes.projects[team]
        holder = stakes.baloot[outcome]
        baloot = [0, 0]
        if holder >= 0:
            baloot[holder & 1] = 2
        found.append(
            utility(
                stakes.rules,
                sun=stakes.sun,
                declarers=stakes.declarers,
                level=stakes.level,
                project_team=team,
                project_points=points,
                project_raw=raw,
                baloot=(baloot[0], baloot[1]),
            )
        )
    return (found[0], found[1], found[2])


def _declarations(
    stakes: Stakes, settled: int
) -> tuple[tuple[int, int, int, int], tuple[tuple[int, ...], ...], int]:
    """In trick 1: each seat's declared rank, the ranks each seat still to play may declare,
    and the seats whose choice is part of the search; ``settled`` is a seat whose declaration
    is settled as none (-1: none is). Without it the ranks are counted again from 0 over what
    is left, as if it had never held its options."""
    declared, options = stakes.declared, stakes.options
    if settled >= 0 and options[settled]:
        kept = list(options)
        kept[settled] = ()
        left = sorted({*(r for r in declared if r >= 0), *(r for o in kept for r in o)})
        rank = {old: new for new, old in enumerate(left)}
        d = tuple(rank[r] if r >= 0 else -1 for r in declared)
        declared = (d[0], d[1], d[2], d[3])
        options = tuple(tuple(rank[r] for r in o) for o in kept)
    pending = sum(1 << seat for seat, ranks in enumerate(options) if ranks)
    return declared, options, pending
