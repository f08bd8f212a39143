"""The seat view: what one seat (or a spectator) may know of a hand, and its JSON."""

from baloot.view.seat_view import FORMAT, SeatView, heard

__all__ = ["FORMAT", "SeatView", "heard"]
