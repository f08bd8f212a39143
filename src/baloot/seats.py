"""Seats and teams. Play goes anticlockwise: N → W → S → E → N (R1.2, R1.3).

>>> Seat.N.next, Seat.N.partner, Seat.W.team
(<Seat.W: 1>, <Seat.S: 2>, <Team.EW: 1>)
>>> Seat.E.after(1), Seat.E.team.seats
(<Seat.N: 0>, (<Seat.W: 1>, <Seat.E: 3>))
"""

from __future__ import annotations

from enum import IntEnum

from baloot.errors import NotationError


class Team(IntEnum):
    """A partnership: ``NS`` (N and S) or ``EW`` (W and E)."""

    NS = 0
    EW = 1

    @property
    def seats(self) -> tuple[Seat, Seat]:
        """The two seats of this team, in play order."""
        return (Seat(self), Seat(self + 2))

    @property
    def other(self) -> Team:
        """The opposing team."""
        return Team(1 - self)

    def __str__(self) -> str:
        return self.name


class Seat(IntEnum):
    """A seat, valued by its place in the order of play from N."""

    N = 0
    W = 1
    S = 2
    E = 3

    @property
    def next(self) -> Seat:
        """The seat on this one's right, who plays next."""
        return Seat((self + 1) & 3)

    def after(self, steps: int) -> Seat:
        """The seat ``steps`` places later in the order of play."""
        return Seat((self + steps) & 3)

    @property
    def partner(self) -> Seat:
        """The seat opposite."""
        return Seat(self ^ 2)

    @property
    def team(self) -> Team:
        """This seat's team."""
        return Team(self & 1)

    @classmethod
    def parse(cls, text: str) -> Seat:
        """Read ``N``, ``W``, ``S`` or ``E`` (upper-case)."""
        try:
            return cls[text]
        except KeyError:
            raise NotationError(f"unknown seat {text!r}") from None

    def __str__(self) -> str:
        return self.name


SEATS = tuple(Seat)
