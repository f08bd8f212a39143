"""The double-dummy search in pure Python: the reference, and the path without a compiler.

Alpha-beta over the cards, NS maximising and EW minimising the value of the whole hand (NS's
card points, or the utility table's entry for NS's final points and trick state). Legal cards
come from :func:`baloot.core.play_rules.play_mask`. Four things make it fast, none changes a value:

- a transposition table at the start of each trick after the first, keyed on the hands and the
  leader (in score mode also on NS's points so far, the trick flags and the declarations'
  outcome), holding a lower and an upper bound;
- bounds from the points left: NS ends with between its points so far and those plus every
  point still out, so the table's least and most over that range may cut the search at once;
- equivalent cards merged: two cards of one hand and suit whose ranks touch in the order that
  decides the trick, once every card between them is gone or in the same hand, and that have
  the same points, take the same tricks and points whichever is played: one is searched;
- move ordering: the table's best lead first, then winners and cheap cards.

The compiled search in ``_fast.c`` is this one over bit masks in C.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from baloot.core.cards import (
    BEST_PLAIN,
    LAST_TRICK_POINTS,
    PLAIN_ABOVE,
    PLAIN_POINTS,
    PLAIN_STRENGTH,
    TRUMP_ABOVE,
    TRUMP_POINTS,
    TRUMP_STRENGTH,
)
from baloot.core.play_rules import beats, ekka_mask, play_mask
from baloot.solver._alike import PLAIN_ORDER, TRUMP_ORDER, merged, packed
from baloot.solver._problem import Problem

_INF: Final = 30000
_SUIT_MASKS: Final = tuple(0xFF << (8 * s) for s in range(4))
_BEST_PLAIN: Final = BEST_PLAIN


@dataclass(slots=True)
class _State:
    """The play from some card on; copied before each card is played."""

    hands: list[int]
    trick: tuple[int, ...]
    leader: int
    win_seat: int
    win_card: int
    ekka: bool
    gone: int
    gone_points: int
    trick_no: int
    points: int
    flags: int
    outcome: int
    declared: tuple[int, int, int, int]
    pending: int

    def copy(self) -> _State:
        return _State(
            list(self.hands),
            self.trick,
            self.leader,
            self.win_seat,
            self.win_card,
            self.ekka,
            self.gone,
            self.gone_points,
            self.trick_no,
            self.points,
            self.flags,
            self.outcome,
            self.declared,
            self.pending,
        )


class Search:
    """One search of one problem; ``use_table`` and ``merge`` off give the slower reference
    configuration (no transposition table, every card searched)."""

    def __init__(self, problem: Problem, *, use_table: bool = True, merge: bool = True) -> None:
        self.problem = problem
        self.use_table = use_table
        self.merge = merge
        self.nodes = 0
        trump = problem.trump
        self.trump = trump
        self.points = tuple(
            (TRUMP_POINTS if c >> 3 == trump else PLAIN_POINTS)[c & 7] for c in range(32)
        )
        self.strength = tuple(
            (TRUMP_STRENGTH if c >> 3 == trump else PLAIN_STRENGTH)[c & 7] for c in range(32)
        )
        self.above = tuple((TRUMP_ABOVE if c >> 3 == trump else PLAIN_ABOVE)[c] for c in range(32))
        self.table: dict[tuple[int, ...], list[int]] = {}
        self.utility = problem.tables
        self.ranges: dict[tuple[int, int, int, int], tuple[int, int]] = {}

    # ------------------------------------------------------------------ entry points

    def start(self) -> _State:
        """The state of the problem, the trick in progress replayed from the hands before it."""
        p = self.problem
        hands = list(p.hands)
        for i, card in enumerate(p.trick):
            hands[(p.leader + i) & 3] |= 1 << card
        state = _State(
            hands,
            (),
            p.leader,
            -1,
            -1,
            False,
            p.gone,
            sum(self.points[c] for c in range(32) if p.gone >> c & 1),
            p.trick_no,
            p.ns_points,
            p.flags,
            p.outcome,
            p.declared,
            p.pending,
        )
        for i, card in enumerate(p.trick):
            self.put(state, (p.leader + i) & 3, card, p.ekka if i == 0 else False)
        return state

    def value(self) -> int:
        """NS's value of the whole hand under perfect play from the problem's position."""
        return self.node(self.start(), -_INF, _INF)

    def values(self) -> list[tuple[int, bool, int]]:
        """``(card, ekka, value)`` for each legal play of the seat to act (the Ekka lead of a
        card after its plain lead, when it is valid). Each is found exactly by null-window
        tests from the value of the card before it; equivalent cards share one search."""
        state = self.start()
        seat = (state.leader + len(state.trick)) & 3
        legal = self.legal(state, seat)
        searched = self.candidates(state, seat, legal)
        ekkas = self.ekkas(state, legal)
        left = self.problem.total - state.gone_points
        guess = 0 if self.problem.score else state.points + left // 2
        value: dict[tuple[int, bool], int] = {}
        for card in range(32):
            if not searched >> card & 1:
                continue
            for ekka in (False, True) if ekkas >> card & 1 else (False,):
                if ekka and not self.problem.partner_led_must_trump:
                    value[card, True] = value[card, False]
                    continue
                child = state.copy()
                self.put(child, seat, card, ekka)
                guess = value[card, ekka] = self.exact(child, guess)
        found: list[tuple[int, bool, int]] = []
        for card in range(32):
            if legal >> card & 1:
                found.append((card, False, value[self.representative(card, searched), False]))
                if ekkas >> card & 1:
                    found.append((card, True, value[card, True]))
        return found

    def exact(self, s: _State, guess: int) -> int:
        """The value of ``s`` by null-window tests ("is it at least t?"), each answering with a
        bound: from ``guess`` in growing steps, then halving once the value is bracketed."""
        lo, hi, step, crossed, last_up = -_INF, _INF, 1, False, None
        t = guess
        while lo < hi:
            g = self.node(s.copy(), t - 1, t)
            up = g >= t
            if up:
                lo = g
            else:
                hi = g
            if lo >= hi:
                break
            if last_up is not None and up != last_up:
                crossed = True
            last_up = up
            if crossed and lo > -_INF and hi < _INF:
                t = lo + (hi - lo + 1) // 2
            else:
                t = lo + step if up else hi - step + 1
                step *= 2
            t = min(max(t, lo + 1), hi)
        return lo

    def representative(self, card: int, searched: int) -> int:
        """The card searched for ``card``: itself, or the nearest stronger card of its run."""
        if searched >> card & 1:
            return card
        above = self.above[card] & searched
        return min((c for c in range(32) if above >> c & 1), key=lambda c: self.strength[c])

    # ------------------------------------------------------------------ the rules

    def legal(self, s: _State, seat: int) -> int:
        p = self.problem
        return play_mask(
            s.hands[seat],
            s.trick,
            bool((s.win_seat ^ seat) & 1),
            s.win_card,
            s.ekka,
            self.trump,
            p.locked,
            p.partner_led_must_trump,
            p.must_undertrump,
        )

    def ekkas(self, s: _State, legal: int) -> int:
        """The cards of ``legal`` that may be led with Ekka (none outside a Hokum lead)."""
        if s.trick or s.trick_no == 0:
            return 0
        return ekka_mask(legal, s.gone, self.trump)

    def put(self, s: _State, seat: int, card: int, ekka: bool) -> None:
        """Play ``card`` of ``seat`` on ``s``; close the trick after the fourth card.

        Not :meth:`baloot.core.position.Position.play`: the search keeps what its value needs as it
        goes (NS's points, the trick flags, the declarations' outcome after trick 1) where
        the hand keeps the cards each team won; who takes the trick is the engine's rule,
        :func:`~baloot.core.play_rules.beats`."""
        s.hands[seat] &= ~(1 << card)
        if not s.trick:
            s.ekka = ekka
            s.win_seat = seat
            s.win_card = card
        elif beats(card, s.win_card, self.trump):
            s.win_seat = seat
            s.win_card = card
        trick = s.trick = (*s.trick, card)
        if len(trick) < 4:
            return
        a, b, c, d = trick
        cp = self.points
        points = cp[a] + cp[b] + cp[c] + cp[d]
        s.gone |= (1 << a) | (1 << b) | (1 << c) | (1 << d)
        s.gone_points += points
        if s.trick_no == 7:
            points += LAST_TRICK_POINTS
        if s.win_seat & 1:
            s.flags |= 2
        else:
            s.flags |= 1
            s.points += points
        if s.trick_no == 0:
            s.outcome = self.outcome(s.declared)
        s.trick_no += 1
        s.leader = s.win_seat
        s.trick = ()

    def outcome(self, declared: tuple[int, int, int, int]) -> int:
        """The table in force after trick 1: 0 if nobody declared, else 1 + the team of the
        best declaration (R10.6; a tie goes to the seat earlier from P1)."""
        order = self.problem.order
        winner = -1
        for seat in range(4):
            rank = declared[seat]
            if rank < 0:
                continue
            if winner < 0 or (rank, -order[seat]) > (declared[winner], -order[winner]):
                winner = seat
        return 0 if winner < 0 else 1 + (winner & 1)

    # ------------------------------------------------------------------ values and bounds

    def leaf(self, s: _State) -> int:
        if not self.problem.score:
            return s.points
        state = 1 if s.flags == 1 else 2 if s.flags == 2 else 0
        return self.utility[s.outcome][s.points * 3 + state]

    def range(self, s: _State, least: int, most: int) -> tuple[int, int]:
        """The least and the most the hand is worth when NS ends with ``least`` to ``most``
        card points (in score mode: over the utility table, trick states that can still
        happen included)."""
        if not self.problem.score:
            return least, most
        key = (s.outcome, s.flags, least, most)
        found = self.ranges.get(key)
        if found is None:
            table = self.utility[s.outcome]
            total = self.problem.total
            reachable = [table[x * 3] for x in range(least, most + 1)]
            if most == total and not s.flags & 2:
                reachable.append(table[total * 3 + 1])
            if least == 0 and not s.flags & 1:
                reachable.append(table[2])
            found = self.ranges[key] = (min(reachable), max(reachable))
        return found

    def sure_range(self, s: _State) -> tuple[int, int]:
        """NS's final card points lie between what it has and that plus every point still
        out; the points each team is sure of narrow that."""
        sure = self.sure_points(s)
        ns, ew = self.top_trump_points(s, 0), self.top_trump_points(s, 1)
        if s.leader & 1:
            ew = max(ew, sure)
        else:
            ns = max(ns, sure)
        return s.points + ns, s.points + self.problem.total - s.gone_points - ew

    def sure_points(self, s: _State) -> int:
        """Card points the leader's team is sure to take: the leader leads its top trumps
        (each the best still out), then in each side suit its top cards, as many as every
        opponent who may still hold a trump must follow; every point still out when that is
        every trick."""
        leader = s.leader
        mine = s.hands[leader]
        every = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]
        left_hand, right_hand = s.hands[(leader + 1) & 3], s.hands[(leader + 3) & 3]
        trump = self.trump
        points = tricks = 0
        trumps_left = trumps_right = 0
        if trump >= 0:
            tm = _SUIT_MASKS[trump]
            trumps_left = (left_hand & tm).bit_count()
            trumps_right = (right_hand & tm).bit_count()
            if not (self.problem.locked and mine & ~tm):
                for rank in TRUMP_ORDER:
                    card = trump * 8 + rank
                    if not every >> card & 1:
                        continue
                    if not mine >> card & 1:
                        break
                    tricks += 1
                    points += self.points[card]
            trumps_left = max(0, trumps_left - tricks)
            trumps_right = max(0, trumps_right - tricks)
        for suit in range(4):
            if suit == trump:
                continue
            limit = 8
            if trumps_left:
                limit = min(limit, (left_hand & _SUIT_MASKS[suit]).bit_count())
            if trumps_right:
                limit = min(limit, (right_hand & _SUIT_MASKS[suit]).bit_count())
            taken = 0
            for rank in PLAIN_ORDER:
                if taken >= limit:
                    break
                card = suit * 8 + rank
                if not every >> card & 1:
                    continue
                if not mine >> card & 1:
                    break
                taken += 1
                points += self.points[card]
            tricks += taken
        if tricks >= 8 - s.trick_no:
            return self.problem.total - s.gone_points
        return points

    def top_trump_points(self, s: _State, team: int) -> int:
        """Card points ``team`` is sure of whoever leads: its trumps that no other trump still
        out beats (the best trumps, from the top down, while it holds them) win the trick
        they fall in."""
        if self.trump < 0:
            return 0
        ours = s.hands[team] | s.hands[team + 2]
        every = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]
        points = 0
        for rank in TRUMP_ORDER:
            card = self.trump * 8 + rank
            if not every >> card & 1:
                continue
            if not ours >> card & 1:
                break
            points += self.points[card]
        return points

    def candidates(self, s: _State, seat: int, legal: int) -> int:
        """``legal`` with one card of each run of equivalent cards (the strongest)."""
        return merged(legal, s.gone | s.hands[seat], self.trump) if self.merge else legal

    def ordered(self, s: _State, seat: int, best: int) -> list[tuple[int, bool]]:
        """The moves of ``seat`` to search, likely best first (``best``: a remembered lead)."""
        cands = self.candidates(s, seat, self.legal(s, seat))
        ekkas = self.ekkas(s, cands) if self.problem.partner_led_must_trump else 0
        if not cands & (cands - 1) and not ekkas:
            return [(cands.bit_length() - 1, False)]
        trick_points = sum(self.points[c] for c in s.trick)
        scored: list[tuple[int, int, bool]] = []
        while cands:
            low = cands & -cands
            cands ^= low
            card = low.bit_length() - 1
            score = self.promise(s, seat, card, trick_points)
            scored.append((score + 1000 if best == card else score, card, False))
            if ekkas & low:
                scored.append((score + 1000 if best == card | 32 else score, card, True))
        scored.sort(reverse=True)
        return [(card, ekka) for _, card, ekka in scored]

    def may_beat(self, held: int, win: int, led: int) -> bool:
        """Whether a seat holding ``held`` may beat ``win`` on a trick led in ``led`` (a guess
        for move ordering: it ignores what the seat must play)."""
        trump = self.trump
        suit = _SUIT_MASKS[led]
        if win >> 3 == trump:
            return bool((not held & suit or led == trump) and held & self.above[win])
        return bool(
            held & self.above[win] or (not held & suit and trump >= 0 and held & _SUIT_MASKS[trump])
        )

    def promise(self, s: _State, seat: int, card: int, trick_points: int) -> int:
        """How promising ``card`` is, for the order of the search: a card that takes the
        trick for its team with no opponent left able to beat it, the more points the
        better; a lead towards the partner's best card of a suit; else cheap cards first. The
        last card of a trick is scored by the points it wins or gives."""
        cp = self.points[card]
        hands = s.hands
        trump = self.trump
        if not s.trick:
            suit = card >> 3
            left, right = hands[(seat + 1) & 3], hands[(seat + 3) & 3]
            if not self.may_beat(left, card, suit) and not self.may_beat(right, card, suit):
                return 200 + cp
            if suit != trump:
                partner = hands[(seat + 2) & 3]
                mask = _SUIT_MASKS[suit]
                out = (partner | left | right) & mask
                trumps = _SUIT_MASKS[trump] if trump >= 0 else 0
                ruff = (not left & mask and left & trumps) or (not right & mask and right & trumps)
                if out and not ruff:
                    best = suit * 8 + _BEST_PLAIN[(out >> (suit * 8)) & 0xFF]
                    if partner >> best & 1:
                        return 150 - cp
            return 100 - cp - self.strength[card]
        wins = beats(card, s.win_card, self.trump)
        win_card = card if wins else s.win_card
        win_team = seat & 1 if wins else s.win_seat & 1
        ours = win_team == seat & 1
        if len(s.trick) == 3:
            return 300 + trick_points + cp if ours else 100 - trick_points - cp
        led = s.trick[0] >> 3
        beatable = False
        for k in range(len(s.trick) + 1, 4):
            other = (s.leader + k) & 3
            if (other & 1) != win_team and self.may_beat(hands[other], win_card, led):
                beatable = True
        if ours:
            return 200 - cp - self.strength[card] if beatable else 400 + cp
        return 150 - cp if beatable else 100 - cp

    # ------------------------------------------------------------------ the search

    def node(self, s: _State, alpha: int, beta: int) -> int:
        if not s.trick:
            if s.trick_no == 8:
                return self.leaf(s)
            if s.trick_no > 0:
                return self.boundary(s, alpha, beta)
        seat = (s.leader + len(s.trick)) & 3
        if s.pending >> seat & 1:
            return self.declare(s, seat, alpha, beta)
        return self.moves(s, seat, alpha, beta, -1)[0]

    def moves(self, s: _State, seat: int, alpha: int, beta: int, best: int) -> tuple[int, int]:
        """The value of ``s`` with ``seat`` to play, and its best move (card | ekka << 5)."""
        self.nodes += 1
        maximising = not seat & 1
        value = -_INF if maximising else _INF
        best_move = -1
        for card, ekka in self.ordered(s, seat, best):
            child = s.copy()
            self.put(child, seat, card, ekka)
            v = self.node(child, alpha, beta)
            if maximising:
                if v > value:
                    value, best_move = v, card | (32 if ekka else 0)
                    if value > alpha:
                        alpha = value
            elif v < value:
                value, best_move = v, card | (32 if ekka else 0)
                if value < beta:
                    beta = value
            if alpha >= beta:
                break
        return value, best_move

    def declare(self, s: _State, seat: int, alpha: int, beta: int) -> int:
        """Trick 1: ``seat`` chooses its declaration (or none) before its card."""
        child = s.copy()
        child.pending &= ~(1 << seat)
        maximising = not seat & 1
        top = max(s.declared)
        value = self.moves(child, seat, alpha, beta, -1)[0]
        for rank in self.problem.options[seat]:
            if maximising:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
            if alpha >= beta:
                break
            if rank < top:
                continue
            declared = child.copy()
            marks = list(declared.declared)
            marks[seat] = rank
            declared.declared = (marks[0], marks[1], marks[2], marks[3])
            v = self.moves(declared, seat, alpha, beta, -1)[0]
            value = max(value, v) if maximising else min(value, v)
        return value

    def boundary(self, s: _State, alpha: int, beta: int) -> int:
        """The start of a trick after the first: bounds, the table, sure points, the leads."""
        lo, hi = self.range(s, s.points, s.points + self.problem.total - s.gone_points)
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
        score = self.problem.score
        base = 0 if score else s.points
        key: tuple[int, ...] = ()
        best = -1
        if self.use_table:
            key = (*packed(s.hands, self.trump), s.leader)
            if score:
                key += (s.points, s.flags, s.outcome)
            entry = self.table.get(key)
            if entry is not None:
                elo, ehi, best = entry[0] + base, entry[1] + base, entry[2]
                if elo >= beta:
                    return elo
                if ehi <= alpha:
                    return ehi
                if elo == ehi:
                    return elo
        lo, hi = self.range(s, *self.sure_range(s))
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
        value, move = self.moves(s, s.leader, alpha, beta, best)
        if self.use_table:
            lo_new = value - base if value >= beta or alpha < value < beta else -_INF
            hi_new = value - base if value <= alpha or alpha < value < beta else _INF
            old = self.table.get(key)
            if old is not None:
                lo_new, hi_new = max(lo_new, old[0]), min(hi_new, old[1])
            self.table[key] = [lo_new, hi_new, move]
        return value
