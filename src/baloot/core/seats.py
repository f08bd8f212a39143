"""Seats and teams. Play goes anticlockwise: N → W → S → E → N (R1.2, R1.3).

>>> Seat.N.next, Seat.N.partner, Seat.W.team
(<Seat.W: 1>, <Seat.S: 2>, <Team.EW: 1>)
>>> Seat.E.after(1), Seat.E.team.seats
(<Seat.N: 0>, (<Seat.W: 1>, <Seat.E: 3>))

Seats and teams are integers (indexes into per-seat and per-team tuples) that are always true:

>>> bool(Seat.N), bool(Team.NS), int(Seat.N)
(True, True, 0)
"""

from __future__ import annotations

from enum import IntEnum

from baloot.core.errors import NotationError


class Team(IntEnum):
    """A partnership: ``NS`` (N and S) or ``EW`` (W and E)."""

    NS = 0
    EW = 1

    def __bool__(self) -> bool:
        """Always true, so ``if team:`` never mistakes NS (the integer 0) for no team."""
        return True

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

    def __bool__(self) -> bool:
        """Always true, so ``if seat:`` never mistakes N (the integer 0) for no seat."""
        return True

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

    @classmethod
    def coerce(cls, value: Seat | str, what: str = "seat") -> Seat:
        """A seat given as a :class:`Seat` or its letter; any other type is a TypeError.

        >>> Seat.coerce("E"), Seat.coerce(Seat.N)
        (<Seat.E: 3>, <Seat.N: 0>)
        >>> Seat.coerce(4, "dealer")
        Traceback (most recent call last):
        ...
        TypeError: dealer must be a Seat or one of 'N', 'W', 'S', 'E', not int 4
        """
        if isinstance(value, Seat):
            return value
        if isinstance(value, str):
            return cls.parse(value)
        raise TypeError(
            f"{what} must be a Seat or one of 'N', 'W', 'S', 'E', "
            f"not {type(value).__name__} {value!r}"
        )

    def __str__(self) -> str:
        return self.name


SEATS = tuple(Seat)
