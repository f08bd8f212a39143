"""Declarations and the project comparison in play (R10, R11; ``decisions.md`` #18–#23)."""

from __future__ import annotations

from baloot.core import _lookup as T
from baloot.core._state import HOKUM, SUN, HandState
from baloot.core.actions import Action
from baloot.core.projects import Project, ProjectKind, may_hold_project, reading
from baloot.core.reasons import ReasonCode


class Declarations(HandState):
    """What each seat holds and declares, who wins the comparison, who holds Baloot."""

    __slots__ = ()

    def _reading(self, s: int) -> tuple[Project, ...]:
        if self._kind == 0:
            return ()
        readings = self._readings
        if readings is None:
            rules = self._rules
            sun = self._kind == SUN
            readings = self._readings = [
                tuple(
                    sorted(
                        reading(
                            m,
                            sun,
                            rules.long_sequence_split,
                            rules.hundred_sequence_beats_four_kind,
                        ),
                        key=self._project_key,
                        reverse=True,
                    )
                )
                if may_hold_project(m)
                else ()
                for m in self._full
            ]
        return readings[s]

    def _project_key(self, p: Project) -> tuple[int, int, int, int]:
        rules = self._rules
        trump = self._trump if rules.trump_sequence_priority and self._kind == HOKUM else None
        return p.key(rules.hundred_sequence_beats_four_kind, trump)

    def _best_declared(self) -> tuple[int, int, int, int] | None:
        keys = [self._project_key(d[0]) for d in self._declared if d]
        return max(keys) if keys else None

    def _declaration_options(self, s: int) -> list[Action]:
        """Every allowed ``declare`` of seat ``s`` (#18, #19, #43), sorted as strings."""
        projects = self._reading(s)
        subsets: list[tuple[Project, ...]] = [(p,) for p in projects]
        if len(projects) == 2:
            subsets.insert(0, projects)
            if projects[0].kind == projects[1].kind:
                subsets.pop()
        best = self._best_declared()
        declare = T.DECLARE[s]
        options = {
            declare[tuple(p.kind for p in subset)]
            for subset in subsets
            if best is None or not self._project_key(subset[0]) < best
        }
        return sorted(options, key=str)

    def _check_declaration(self, action: Action) -> tuple[Project, ...]:
        """The projects a ``declare`` names (#18, #19), or the rule it breaks."""
        s = int(action.seat)
        name = action.seat.name
        if self._trick_no or any((self._leader + i) & 3 == s for i in range(len(self._trick))):
            raise self._fail(action, ReasonCode.DECLARE_FIRST_TRICK, seat=name)
        if self._declared[s] is not None:
            raise self._fail(action, ReasonCode.DECLARED_ALREADY, seat=name)
        if len(action.claims) > 2:
            raise self._fail(action, ReasonCode.DECLARE_TOO_MANY, seat=name)
        unclaimed = list(self._reading(s))
        chosen = []
        for claim in action.claims:
            match = next(
                (
                    p
                    for p in unclaimed
                    if p.kind == claim.kind and (claim.cards is None or claim.cards.mask == p.mask)
                ),
                None,
            )
            if match is None:
                held = claim.kind.word if claim.cards is None else str(claim)
                raise self._fail(action, ReasonCode.PROJECT_NOT_HELD, seat=name, project=held)
            unclaimed.remove(match)
            chosen.append(match)
        chosen.sort(key=self._project_key, reverse=True)
        best = self._best_declared()
        if best is not None and self._project_key(chosen[0]) < best:
            raise self._fail(
                action, ReasonCode.DECLARE_LOWER, seat=name, project=chosen[0].kind.word
            )
        return tuple(chosen)

    def _project_winner(self) -> int:
        """The seat holding the single best declared project (R10.6), or -1."""
        best_seat, best_key = -1, None
        for seat in self._order:
            projects = self._declared[seat]
            if projects:
                key = self._project_key(projects[0])
                if best_key is None or key > best_key:
                    best_seat, best_key = seat, key
        return best_seat

    def _baloot_seat(self, shown_team: int) -> int:
        """The seat credited with Baloot (R11), or -1."""
        if self._kind != HOKUM:
            return -1
        pair = T.KING_QUEEN[self._trump]
        for seat in range(4):
            if self._full[seat] & pair == pair:
                if seat & 1 == shown_team:
                    partial = self._rules.baloot_blocked_by_partial_overlap
                    for p in self._reading(seat):
                        overlap = (p.mask & pair).bit_count()
                        if p.kind == ProjectKind.HUNDRED and (
                            overlap == 2 or (overlap and p.four_of_a_kind)
                        ):
                            return -1
                        if partial and overlap == 1:
                            return -1
                return seat
        return -1
