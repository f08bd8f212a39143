"""The heuristic bot's thresholds: the hand values at which it bids, doubles and raises."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Thresholds:
    """Hand values (see :mod:`baloot.bots.heuristic.values`) that trigger each call.

    >>> Thresholds().hokum_bid, Thresholds(sun_bid=9).sun_bid
    (7.0, 9)
    """

    #: Hand value (see ``hokum_value``) from which a Hokum is bid.
    hokum_bid: float = 7.0
    #: Hand value (see ``sun_value``) from which a Sun is bid.
    sun_bid: float = 8.0
    #: Extra Sun value needed to turn the partner's Hokum into this seat's Sun.
    partner_margin: float = 3.0
    #: Defence value (see ``defence_value``) from which a Hokum is doubled.
    double_hokum: float = 11.0
    #: Sun value from which a Sun is doubled (with three Aces: a very strong hand).
    double_sun: float = 12.0
    #: Hokum value of the complete hand from which the declarer triples a Double.
    triple_hokum: float = 15.0
    #: Defence value from which the doubler answers a Triple with Four.
    four_hokum: float = 17.0
    #: Hokum value from which the declarer answers a Four with Gahwa.
    gahwa_hokum: float = 18.0
