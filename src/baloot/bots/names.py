"""Bot names: one grammar wherever a bot is named (``docs/bots.md``).

- ``NAME[:OPTIONS]`` names a registered bot (built in, installed, or registered by a server's
  operator); ``OPTIONS`` are comma-separated words or ``key=value`` pairs: ``expert:hard``,
  ``expert:samples=20,hard``.
- ``cmd:COMMAND`` is an external program that speaks ``baloot-bot/1``, its command split as a
  shell splits words (no shell runs it): ``cmd:python3 "my bot.py"``.
- Any other name with ``/`` before its first ``:`` is the path of such a program: ``./mybot``.
  A path that ends in ``.py`` is run by the Python that runs pybaloot. An option's value may
  hold a ``/``: ``neural:weights=mine/neural.npz``.

External programs are for the arena and the terminal; a web table takes registered names only.

>>> parse_bot_name("expert:samples=20,hard")
Registered(name='expert', options=BotOptions('samples=20,hard'))
>>> parse_bot_name('cmd:python3 "my bot.py" --fast').argv
('python3', 'my bot.py', '--fast')
>>> parse_bot_name("cmd:python3 bot.py").name
'cmd:python3 bot.py'
>>> parse_bot_name("bots/first.py").argv[1:]
('bots/first.py',)
>>> parse_bot_name("neural:weights=mine/neural.npz").name
'neural'
>>> parse_bot_name("expert:")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
baloot.bots.names.UnknownBotError: bot name 'expert:': options after ':' are words or key=value...
"""

from __future__ import annotations

import re
import shlex
import sys
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Final

from baloot.core.errors import BalootError

#: The prefix of an external command.
COMMAND_PREFIX: Final = "cmd:"
_NAME: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
_OPTION: Final = re.compile(r"([A-Za-z0-9][A-Za-z0-9_.-]*)(?:=([^,=\s]+))?")


class UnknownBotError(BalootError, LookupError):
    """No bot of that name, or an option the bot does not take: one line saying what exists."""


class BotOptions(Mapping[str, str]):
    """The options of a bot name, in their order: a word maps to ``""``, ``key=value`` to its
    value. ``bot`` is the bot's name, for the messages of a bad option.

    >>> options = BotOptions.parse("samples=20,hard", bot="expert")
    >>> options["samples"], options.words, "hard" in options
    ('20', ('hard',), True)
    >>> options.integer("samples", 10), options.integer("depth", 3)
    (20, 3)
    >>> options.check("samples", "hard", "easy")
    >>> options.check("samples")
    Traceback (most recent call last):
    ...
    baloot.bots.names.UnknownBotError: bot 'expert' has no option 'hard' (options: samples)
    """

    __slots__ = ("_items", "bot")

    def __init__(self, items: Iterable[tuple[str, str]] = (), bot: str = "") -> None:
        self._items: dict[str, str] = {}
        for key, value in items:
            if key in self._items:
                raise UnknownBotError(f"bot {bot!r}: option {key!r} is given twice")
            self._items[key] = value
        self.bot = bot

    @classmethod
    def parse(cls, text: str, bot: str = "") -> BotOptions:
        """The options written after ``NAME:``."""
        items = []
        for part in text.split(","):
            found = _OPTION.fullmatch(part.strip())
            if found is None:
                raise UnknownBotError(
                    f"bot name {f'{bot}:{text}'!r}: options after ':' are words or key=value, "
                    "comma-separated"
                )
            items.append((found[1], found[2] or ""))
        return cls(items, bot)

    def __getitem__(self, key: str) -> str:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(tuple(self._items.items()))

    def __str__(self) -> str:
        return ",".join(f"{k}={v}" if v else k for k, v in self._items.items())

    def __repr__(self) -> str:
        return f"BotOptions({str(self)!r})"

    @property
    def words(self) -> tuple[str, ...]:
        """The options given as bare words (``hard``), in order."""
        return tuple(key for key, value in self._items.items() if not value)

    def check(self, *known: str) -> None:
        """Refuse any option not in ``known``, naming the ones that exist."""
        for key in self._items:
            if key not in known:
                offered = f"options: {', '.join(known)}" if known else "it takes no options"
                raise UnknownBotError(f"bot {self.bot!r} has no option {key!r} ({offered})")

    def integer(self, key: str, default: int, low: int = 1, high: int = 10**9) -> int:
        """The whole number given as ``key=N`` (``default`` when absent), from ``low`` to
        ``high``; anything else is an :class:`UnknownBotError` that says what is wanted."""
        text = self._items.get(key)
        if text is None:
            return default
        if not text.isdigit() or not low <= int(text) <= high:
            raise UnknownBotError(
                f"bot {self.bot!r}: {key} takes a whole number from {low} to {high}, not {text!r}"
            )
        return int(text)

    def number(self, key: str, default: float, low: float = 0.0, high: float = 1e9) -> float:
        """The number given as ``key=X`` (``default`` when absent), from ``low`` to ``high``."""
        text = self._items.get(key)
        if text is None:
            return default
        try:
            value = float(text)
        except ValueError:
            value = float("nan")
        if not low <= value <= high:
            raise UnknownBotError(
                f"bot {self.bot!r}: {key} takes a number from {low:g} to {high:g}, not {text!r}"
            )
        return value


@dataclass(frozen=True)
class OptionBounds:
    """What a client of a web table may ask of a bot, which the bot declares as its
    ``CLIENT_OPTIONS`` (``docs/bots.md``): the options it may give as the bot takes them
    (``free``: its levels, settings that cost no time) and those that set its budget, each
    with the most a client may ask (``most``). Any other option is not taken there: a bot
    that declares nothing takes none from a client.

    >>> bounds = OptionBounds(free=("fast",), most={"deals": 192})
    >>> bounds.check(BotOptions.parse("fast,deals=100", "expert"))
    >>> bounds.check(BotOptions.parse("deals=100000", "expert"))
    Traceback (most recent call last):
    ...
    baloot.bots.names.UnknownBotError: bot 'expert': deals is at most 192 at a web table, \
not '100000'
    >>> OptionBounds().check(BotOptions.parse("draws=9", "neural"))
    Traceback (most recent call last):
    ...
    baloot.bots.names.UnknownBotError: bot 'neural': option 'draws' is not taken at a web \
table (it takes no options there)
    """

    free: tuple[str, ...] = ()
    most: Mapping[str, int] = field(default_factory=dict)

    def check(self, options: BotOptions) -> None:
        """Refuse an option a client may not give, or a budget beyond its bound, in one
        line; the bot itself refuses a value of the wrong form."""
        for key, value in options.items():
            if key in self.free:
                continue
            if key not in self.most:
                taken = ", ".join((*self.free, *self.most)) or "it takes no options there"
                raise UnknownBotError(
                    f"bot {options.bot!r}: option {key!r} is not taken at a web table ({taken})"
                )
            bound = self.most[key]
            digits = value.lstrip("0")
            if value.isdecimal() and (len(digits) > len(str(bound)) or int(digits or 0) > bound):
                raise UnknownBotError(
                    f"bot {options.bot!r}: {key} is at most {bound} at a web table, not {value!r}"
                )


@dataclass(frozen=True)
class Registered:
    """A bot of the registry, by name, with its options."""

    name: str
    options: BotOptions

    def __str__(self) -> str:
        return f"{self.name}:{self.options}" if self.options else self.name


@dataclass(frozen=True)
class Program:
    """An external program that speaks ``baloot-bot/1``: its arguments, and the name it was
    given by (``./mybot``, ``cmd:python3 bot.py``)."""

    argv: tuple[str, ...]
    name: str

    def __str__(self) -> str:
        return self.name


#: What a bot name names.
BotSpec = Registered | Program


def parse_bot_name(text: str) -> BotSpec:
    """What the bot name ``text`` names (see the module's grammar); an
    :class:`UnknownBotError` with one clear line for text that is no bot name. Whether such a
    bot exists is for the registry (:func:`~baloot.bots.make_bot`) to say."""
    if text.startswith(COMMAND_PREFIX):
        command = text[len(COMMAND_PREFIX) :]
        try:
            argv = tuple(shlex.split(command))
        except ValueError as error:
            raise UnknownBotError(f"bot command {command!r}: {error}") from None
        if not argv:
            raise UnknownBotError('cmd: needs a command, e.g. cmd:"python3 bot.py"')
        return Program(argv, text)
    if "/" in text.partition(":")[0]:
        argv = (sys.executable, text) if text.endswith(".py") else (text,)
        return Program(argv, text)
    name, colon, options = text.partition(":")
    if _NAME.fullmatch(name) is None:
        raise UnknownBotError(
            f"bot name {text!r}: a bot is NAME[:OPTIONS], cmd:COMMAND, or a path with '/'"
        )
    return Registered(name, BotOptions.parse(options, name) if colon else BotOptions(bot=name))
