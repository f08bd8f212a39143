"""What a hand comes to (R9.2, R10–R12): its tricks, card points, shown projects and result.

Read-only queries of the hand's state, apart from the door that changes it;
:class:`~baloot.core.hand.Hand` is the public face.
"""

from __future__ import annotations

from typing import Final

from baloot.core._declarations import Declarations
from baloot.core._state import HOKUM, OVER, SUN
from baloot.core.actions import Action
from baloot.core.cards import LAST_TRICK_POINTS, Suit, card_points, trick_winner
from baloot.core.projects import Project, ProjectKind
from baloot.core.scoring import HandResult, score_hand
from baloot.core.seats import SEATS, Seat, Team
from baloot.core.vocabulary import Contract, ContractKind, Level, Outcome, ShownProject, Trick

_SUITS: Final = tuple(Suit)


class Results(Declarations):
    """The tricks, points, projects and score of a hand, so far or at its end."""

    __slots__ = ()

    def _contract(self) -> Contract | None:
        """The contract once the bidding is over (the level grows during doubling)."""
        if self._kind == 0:
            return None
        return Contract(
            ContractKind.HOKUM if self._kind == HOKUM else ContractKind.SUN,
            None if self._kind == SUN else _SUITS[self._trump],
            SEATS[self._declarer],
            Level(self._level),
            self._locked,
            SEATS[self._doubler] if self._doubler >= 0 else None,
        )

    def tricks(self) -> tuple[Trick, ...]:
        """Every trick begun, in order: leader, plays with their words, winner, card points.

        The one place where the play history is grouped into tricks (R9.2); the last trick's
        points include its 10.
        """
        trump = self._trump if self._kind == HOKUM else None
        trump_suit = None if trump is None else _SUITS[trump]
        tricks: list[Trick] = []
        plays: list[Action] = []
        for action in self._actions:
            if action.card is None:
                continue
            plays.append(action)
            if len(plays) == 4:
                cards = [p.card for p in plays if p.card is not None]
                winner = plays[trick_winner(cards, trump_suit)].seat
                points = card_points(sum(c.bit for c in cards), trump)
                if len(tricks) == 7:
                    points += LAST_TRICK_POINTS
                tricks.append(Trick(plays[0].seat, tuple(plays), winner, points))
                plays = []
        if plays:
            tricks.append(Trick(plays[0].seat, tuple(plays), None, 0))
        return tuple(tricks)

    def card_points(self) -> tuple[int, int]:
        """Card points (NS, EW) of the tricks taken so far, with the last-trick 10 at the end."""
        trump = self._trump if self._kind == HOKUM else None
        points = [card_points(self._won[0], trump), card_points(self._won[1], trump)]
        if self._last_team >= 0:
            points[self._last_team] += LAST_TRICK_POINTS
        return (points[0], points[1])

    def shown_projects(self) -> tuple[ShownProject, ...]:
        """The projects shown at the second trick (R10.5), with the seats that held them:
        every project of both players of the team holding the best declared project; empty
        before the first trick ends."""
        winner = self._project_winner()
        if self._trick_no == 0 or winner < 0:
            return ()
        team = winner & 1
        return tuple(ShownProject(SEATS[s], p) for s in (team, team + 2) for p in self._reading(s))

    def result(self) -> HandResult:
        """The hand's outcome so far: contract, tricks, card points, projects, Baloot, score."""
        dealer = SEATS[self._dealer]
        declared = tuple(None if d is None else tuple(p.kind for p in d) for d in self._declared)
        if self._phase is OVER and self._kind == 0:
            kawesh = self._actions[-1].seat if self._kawesh else None
            return HandResult(
                outcome=Outcome.ANNULLED,
                dealer=dealer,
                contract=None,
                tricks=(0, 0),
                card_points=(0, 0),
                score=(0, 0),
                declared=declared,
                kawesh=kawesh,
            )
        if self._phase is not OVER:
            return HandResult(
                outcome=Outcome.IN_PROGRESS,
                dealer=dealer,
                contract=None if self._phase.is_bidding else self._contract(),
                tricks=self._tricks,
                card_points=self.card_points(),
                declared=declared,
            )
        return self._played_result(dealer, declared)

    def _played_result(
        self, dealer: Seat, declared: tuple[tuple[ProjectKind, ...] | None, ...]
    ) -> HandResult:
        """R10–R12 applied to a hand played to its end."""
        shown = self.shown_projects()
        winner_seat = self._project_winner()
        team = None if winner_seat < 0 else Team(winner_seat & 1)
        projects: list[tuple[Project, ...]] = [(), ()]
        if team is not None:
            projects[team] = tuple(s.project for s in shown)
        sun = self._kind == SUN
        points = sum(p.kind.game_points(sun) for p in projects[team]) if team is not None else 0
        raw = sum(p.kind.raw for p in projects[team]) if team is not None else 0
        baloot = [0, 0]
        holder = self._baloot_seat(-1 if team is None else int(team))
        if holder >= 0:
            baloot[holder & 1] = 2
        cards = self.card_points()
        sheet = score_hand(
            self._rules,
            sun=sun,
            declarers=Team(self._declarer & 1),
            level=self._level,
            card_points=cards,
            tricks=self._tricks,
            project_team=team,
            project_points=points,
            project_raw=raw,
            baloot=(baloot[0], baloot[1]),
        )
        return HandResult(
            outcome=Outcome.PLAYED,
            dealer=dealer,
            contract=self._contract(),
            tricks=self._tricks,
            card_points=cards,
            projects=(projects[0], projects[1]),
            shown=shown,
            declared=declared,
            baloot=(baloot[0], baloot[1]),
            baloot_holder=SEATS[holder] if holder >= 0 else None,
            made=sheet.made,
            kaboot=sheet.kaboot,
            score=sheet.score,
            scoring=sheet,
            gahwa_winner=sheet.winner if self._level == Level.GAHWA else None,
        )
