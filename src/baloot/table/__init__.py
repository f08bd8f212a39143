"""The table: a match and who sits where, driven by events (the terminal and the server)."""

from baloot.table.players import Bot, BotError, Player, PlayerKind, bot_action
from baloot.table.table import Event, EventKind, Table, Waiting, WaitKind, first_dealer

__all__ = [
    "Bot",
    "BotError",
    "Event",
    "EventKind",
    "Player",
    "PlayerKind",
    "Table",
    "WaitKind",
    "Waiting",
    "bot_action",
    "first_dealer",
]
