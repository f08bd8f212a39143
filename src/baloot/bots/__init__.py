"""Bots: players that drive the engine through a seat's view, never seeing hidden cards.

Bots are named by one grammar (:mod:`baloot.bots.names`, ``docs/bots.md``) and made by the
registry (:func:`make_bot`); external programs that speak ``baloot-bot/1`` are
:mod:`baloot.bots.external`; each decision has a clock (:mod:`baloot.bots.clock`).
"""

from baloot.bots.base import (
    BotFactory,
    OptionsFactory,
    available_bots,
    check_bot_name,
    make_bot,
    registered,
)
from baloot.bots.clock import Clock, TimeLimit, current_clock, deciding
from baloot.bots.driver import BotTimer, choose, play_hand, play_match
from baloot.bots.heuristic import HeuristicBot
from baloot.bots.names import BotOptions, UnknownBotError, parse_bot_name
from baloot.bots.random_bot import RandomBot
from baloot.table.players import Bot, BotError

__all__ = [
    "Bot",
    "BotError",
    "BotFactory",
    "BotOptions",
    "BotTimer",
    "Clock",
    "HeuristicBot",
    "OptionsFactory",
    "RandomBot",
    "TimeLimit",
    "UnknownBotError",
    "available_bots",
    "check_bot_name",
    "choose",
    "current_clock",
    "deciding",
    "make_bot",
    "parse_bot_name",
    "play_hand",
    "play_match",
    "registered",
]
