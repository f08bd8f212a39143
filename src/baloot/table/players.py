"""Who sits at a table: human players and bots, and the checked decision of a bot.

The :class:`Bot` protocol lives here, below the bots themselves, so that a table can seat a
bot without knowing which one: a bot sees only its seat's :class:`~baloot.view.SeatView` and
the legal actions, and returns one of them.

>>> Player.human("Saad").label, Player.bot("heuristic").label
('Saad', 'bot:heuristic')
>>> Player.parse("bot:random")
Player(kind=<PlayerKind.BOT: 'bot'>, name='random')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass
from enum import Enum
from typing import Protocol, runtime_checkable

from baloot.core.actions import Action
from baloot.core.errors import IllegalActionError
from baloot.core.hand import Hand
from baloot.core.reasons import ReasonCode
from baloot.core.seats import Seat
from baloot.view.seat_view import SeatView

BOT_PREFIX = "bot:"


@runtime_checkable
class Bot(Protocol):
    """Anything that picks one legal action from what its seat can see."""

    name: str

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """Return one of ``legal``: the seat's decision in ``view``."""
        ...


@runtime_checkable
class Listening(Protocol):
    """A bot that wants to hear when a hand is over (an external program is told ``over``)."""

    def hand_over(self, view: SeatView) -> None:
        """``view`` is the finished hand as the bot's seat sees it (its result set)."""
        ...


def tell_hand_over(hand: Hand, bots: Mapping[Seat, Bot]) -> None:
    """Tell every bot of ``bots`` that listens that ``hand`` is over, in its seat's view."""
    for seat, bot in bots.items():
        listen = getattr(bot, "hand_over", None)  # quicker than isinstance(bot, Listening)
        if listen is not None:
            listen(SeatView.of(hand, seat))


class BotError(IllegalActionError):
    """A bot returned an action that is not legal; nothing was applied."""


class PlayerKind(Enum):
    """A person at the keyboard, or a bot."""

    HUMAN = "human"
    BOT = "bot"


@dataclass(frozen=True, slots=True)
class Player:
    """Who sits in a seat: a human with a display name, or a bot by its registry name."""

    kind: PlayerKind
    name: str

    @classmethod
    def human(cls, name: str) -> Player:
        """A human player called ``name``."""
        return cls(PlayerKind.HUMAN, name)

    @classmethod
    def bot(cls, name: str) -> Player:
        """The bot registered as ``name``."""
        return cls(PlayerKind.BOT, name)

    @classmethod
    def parse(cls, label: str) -> Player:
        """A record's ``players`` entry: ``bot:NAME`` is a bot, anything else a human."""
        if label.startswith(BOT_PREFIX):
            return cls.bot(label[len(BOT_PREFIX) :])
        return cls.human(label)

    @property
    def is_human(self) -> bool:
        """True for a person."""
        return self.kind is PlayerKind.HUMAN

    @property
    def label(self) -> str:
        """The name as a record's ``players`` writes it (``bot:heuristic`` for a bot)."""
        return self.name if self.is_human else BOT_PREFIX + self.name


def bot_action(hand: Hand, bot: Bot) -> Action:
    """What ``bot`` decides for the seat to act in ``hand``: checked against the legal
    actions (:class:`BotError` otherwise) and with the Baloot word announced for it."""
    seat = hand.to_act
    if seat is None:
        raise IllegalActionError.of(ReasonCode.HAND_OVER)
    return bot_decided(hand, bot.name, bot.choose(SeatView.of(hand, seat), hand.legal_actions()))


def bot_decided(hand: Hand, bot: str, action: Action) -> Action:
    """``action``, what the bot called ``bot`` decided for the seat to act in ``hand`` (here or
    elsewhere): checked against the legal actions (:class:`BotError` otherwise) and with the
    Baloot word announced for it."""
    seat = hand.to_act
    if seat is None:
        raise IllegalActionError.of(ReasonCode.HAND_OVER)
    if action not in hand.legal_actions():
        raise BotError.of(ReasonCode.BOT_ILLEGAL, str(action), bot=bot, seat=seat.name)
    return hand.announced(action)


def close_bot(bot: object) -> None:
    """Let go of what ``bot`` holds (a program, a pool), if anything: a bot may have a
    ``close``, and failing to let go never stops whoever ends it."""
    close = getattr(bot, "close", None)  # quicker than isinstance(bot, Closing)
    if close is not None:
        with suppress(Exception):
            close()
