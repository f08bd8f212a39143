"""The registry that finds bots by name (the grammar of names is :mod:`baloot.bots.names`).

A bot sees only its seat's :class:`~baloot.view.SeatView` and the legal actions, and returns
one of them. Registered bots are built in (``random``, ``heuristic``), come from an installed
package that declares an entry point in the group ``pybaloot.bots``, or are registered while a
server runs (its operator's bots, :func:`registered`). Each is made by a factory: a callable
that takes a ``random.Random`` and, if it has a parameter called ``options`` or a second
required one, the name's :class:`~baloot.bots.names.BotOptions` (a factory without refuses
any option). Names of external programs (``cmd:…``, a path) make an
:class:`~baloot.bots.external.ExternalBot`.

>>> import random
>>> bot = make_bot("random", random.Random(1))
>>> bot.name
'random'
>>> {"heuristic", "random", "expert", "hard"} <= set(available_bots())
True
>>> make_bot("heuristic:deep", random.Random(1))
Traceback (most recent call last):
...
baloot.bots.names.UnknownBotError: bot 'heuristic' has no option 'deep' (it takes no options)
"""

from __future__ import annotations

import inspect
import random
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from functools import cache
from importlib.metadata import entry_points
from typing import Protocol, runtime_checkable

from baloot.bots.names import (
    BotOptions,
    BotSpec,
    OptionBounds,
    Program,
    Registered,
    UnknownBotError,
)
from baloot.bots.names import parse_bot_name as parse_bot_name
from baloot.table.players import Bot, close_bot

ENTRY_POINT_GROUP = "pybaloot.bots"

#: A factory that makes a bot from its random generator (and takes no options).
BotFactory = Callable[[random.Random], Bot]
#: A factory that makes a bot from its random generator and the options of its name.
OptionsFactory = Callable[[random.Random, BotOptions], Bot]
#: Any factory of the registry.
AnyFactory = BotFactory | OptionsFactory

__all__ = [
    "ENTRY_POINT_GROUP",
    "AnyFactory",
    "BotFactory",
    "Closing",
    "OptionsFactory",
    "UnknownBotError",
    "available_bots",
    "check_bot_name",
    "close_bot",
    "make_bot",
    "parse_bot_name",
    "register",
    "registered",
    "takes_options",
]


def _builtin() -> dict[str, AnyFactory]:
    """The bots of this package: one line each."""
    from baloot.bots.expert import ExpertBot
    from baloot.bots.heuristic import HeuristicBot
    from baloot.bots.ismcts import IsmctsBot
    from baloot.bots.levels import easy, hard, medium
    from baloot.bots.random_bot import RandomBot

    return {
        "random": RandomBot,
        "heuristic": HeuristicBot,
        "expert": ExpertBot,
        "ismcts": IsmctsBot,
        "easy": easy,
        "medium": medium,
        "hard": hard,
    }


_registered: dict[str, AnyFactory] = {}


def available_bots() -> dict[str, AnyFactory]:
    """Every registered bot by name: installed, built in, and registered by an operator."""
    return {**_installed(), **_builtin(), **_registered}


@cache
def _installed() -> dict[str, AnyFactory]:
    """Bots of installed packages, looked up once: the package metadata does not change.

    A package's bot that cannot be loaded (its module does not import, or raises) is left
    out, said in one line on standard error once in the process: one broken package must not
    take the other bots, the arena, the terminal or a server's lobby down with it.
    """
    from baloot.bots.failure import exception_line

    bots: dict[str, AnyFactory] = {}
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        try:
            bots[entry.name] = entry.load()
        except Exception as error:
            print(
                f"baloot: the installed bot {entry.name!r} ({entry.value}) cannot be loaded, "
                f"so it is left out: {exception_line(error)}",
                file=sys.stderr,
            )
    return bots


def takes_options(factory: Callable[..., Bot]) -> bool:
    """True when ``factory`` is given the options: it has a parameter called ``options``, or
    a second required positional one.

    >>> from baloot.bots import HeuristicBot
    >>> takes_options(HeuristicBot), takes_options(lambda rng, options: HeuristicBot(rng))
    (False, True)
    """
    return _options_parameter(factory) is not None


def _options_parameter(factory: Callable[..., Bot]) -> inspect.Parameter | None:
    try:
        parameters = inspect.signature(factory).parameters
    except (TypeError, ValueError):  # no signature to read: a plain factory
        return None
    if "options" in parameters:
        return parameters["options"]
    required = [
        p
        for p in parameters.values()
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty
    ]
    return required[1] if len(required) >= 2 else None


@contextmanager
def registered(bots: Mapping[str, AnyFactory]) -> Iterator[None]:
    """Add ``bots`` to the registry while inside (a server's operator bots); a name that is
    taken already is a ``ValueError``."""
    register(bots)
    try:
        yield
    finally:
        for name in bots:
            _registered.pop(name, None)


def register(bots: Mapping[str, AnyFactory]) -> None:
    """Add ``bots`` to the registry for good (a worker process's bots); a name that is taken
    already is a ``ValueError``."""
    taken = sorted(set(bots) & set(available_bots()))
    if taken:
        raise ValueError(f"bot names already registered: {', '.join(taken)}")
    _registered.update(bots)


def _unknown(name: str) -> UnknownBotError:
    known = ", ".join(sorted(available_bots()))
    return UnknownBotError(
        f"unknown bot {name!r} (available: {known}; a program is cmd:COMMAND or a path with /)"
    )


def make_bot(name: str | BotSpec, rng: random.Random) -> Bot:
    """A new bot by name (``heuristic``, ``expert:hard``, ``cmd:python3 bot.py``, ``./mybot``),
    with its own random generator; an :class:`UnknownBotError` with one line if there is none."""
    spec = parse_bot_name(name) if isinstance(name, str) else name
    if isinstance(spec, Program):
        from baloot.bots.external import ExternalBot

        return ExternalBot(spec)
    factory: Callable[..., Bot] | None = available_bots().get(spec.name)
    if factory is None:
        raise _unknown(spec.name)
    parameter = _options_parameter(factory)
    if parameter is None:
        spec.options.check()
        return factory(rng)
    if parameter.kind is parameter.KEYWORD_ONLY:
        return factory(rng, **{parameter.name: spec.options})
    return factory(rng, spec.options)


def check_bot_name(name: str, *, programs: bool = True, bounded: bool = False) -> BotSpec:
    """What ``name`` names, checked: the bot exists, takes its options and can be made, or the
    program can be found. With ``programs`` False, only registered bots are accepted. With
    ``bounded`` (a name a web table's client gave), only the options the bot declares in its
    ``CLIENT_OPTIONS`` (an :class:`~baloot.bots.names.OptionBounds`), within their bounds: a
    client chooses a bot and its level, never a budget that would hold its table up, nor a
    file of the server's machine (the ``neural`` bot's ``weights``)."""
    spec = parse_bot_name(name)
    if isinstance(spec, Registered):
        factory = available_bots().get(spec.name)
        if bounded and factory is not None:
            bounds = getattr(factory, "CLIENT_OPTIONS", None)
            (bounds if isinstance(bounds, OptionBounds) else OptionBounds()).check(spec.options)
        try:
            bot = make_bot(spec, random.Random(0))
        except UnknownBotError:
            raise
        except Exception as error:
            from baloot.bots.failure import exception_line

            raise UnknownBotError(f"bot {name!r} cannot be made: {exception_line(error)}") from None
        close_bot(bot)
    elif not programs:
        raise UnknownBotError(
            f"bot {name!r}: only registered bots are taken here "
            f"({', '.join(sorted(available_bots()))})"
        )
    else:
        from baloot.bots.external import find_program

        find_program(spec)
    return spec


@runtime_checkable
class Closing(Protocol):
    """A bot that holds something to let go of once its match is over (a process)."""

    def close(self) -> None:
        """Let go of it."""
        ...
