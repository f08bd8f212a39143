"""Bots: players that drive the engine through a seat's view, never seeing hidden cards."""

from baloot.bots.base import BotFactory, UnknownBotError, available_bots, make_bot
from baloot.bots.driver import BotTimer, choose, play_hand, play_match
from baloot.bots.heuristic import HeuristicBot
from baloot.bots.random_bot import RandomBot
from baloot.table.players import Bot, BotError

__all__ = [
    "Bot",
    "BotError",
    "BotFactory",
    "BotTimer",
    "HeuristicBot",
    "RandomBot",
    "UnknownBotError",
    "available_bots",
    "choose",
    "make_bot",
    "play_hand",
    "play_match",
]
