"""The expert bot: bids and doubles by simulating the hand, plays by solving sampled deals.

Modules: ``support`` (what it takes from the world sampler, the solver and the bot options),
``budget`` (:class:`SearchBudget`: how many worlds and deals a decision costs), ``inference`` (what
the others' calls and plays make likely), ``equity`` (the chance to win the match from given
totals), ``bidding`` (calls by simulation), ``play`` (cards by sampled solving), ``bot``
(:class:`ExpertBot`).
"""

from baloot.bots.expert.bot import ExpertBot, best_play
from baloot.bots.expert.budget import PRESETS, PlayMode, SearchBudget

__all__ = ["PRESETS", "ExpertBot", "PlayMode", "SearchBudget", "best_play"]
