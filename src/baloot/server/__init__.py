"""The web server: the table protocol ``baloot-table/1`` (``docs/table-protocol.md``) over a
:class:`~baloot.table.Table`, in layers of their own.

- :mod:`~baloot.server.room`: a :class:`Room` speaks the protocol in process, as plain dicts,
  free of sockets and clocks; :mod:`~baloot.server.messages` reads and builds its messages;
  :mod:`~baloot.server.seating` says who sits where (tokens, connections, stand-ins). The room
  wires its collaborators: :mod:`~baloot.server.seat_decisions` (what a seat decides),
  :mod:`~baloot.server.bot_turns` (the bots' turns, stand-ins, time-outs),
  :mod:`~baloot.server.claims`, :mod:`~baloot.server.room_hints`,
  :mod:`~baloot.server.publishing` (each message encoded once per audience),
  :mod:`~baloot.server.history` (what ``resync`` tells again) and
  :mod:`~baloot.server.room_journal` (the steps storage keeps).
- :mod:`~baloot.server.journal` and :mod:`~baloot.server.storage`: what a table's storage
  keeps (its config and steps, the finished records), in SQLite or PostgreSQL;
  :mod:`~baloot.server.group_commit` stores many tables' steps in one transaction;
  :mod:`~baloot.server.leases` (which node serves which table) and
  :mod:`~baloot.server.lobby` (the lobby across nodes) are parts of the store, on the
  connection of :mod:`~baloot.server.transactions`.
- :mod:`~baloot.server.hall`: every table of a server, with its clock, bots and storage;
  :mod:`~baloot.server.requests` checks what a client asks of a new table;
  :mod:`~baloot.server.presence` paces what a table tells of its seats' comings and goings,
  :mod:`~baloot.server.hint_lane` makes hints apart from the bots' decisions.
- :mod:`~baloot.server.app`: the Starlette application (pages, API, WebSocket);
  :mod:`~baloot.server.api_json`: what its API tells the pages of the tables;
  :mod:`~baloot.server.serve`: ``baloot serve``, on uvicorn as
  :mod:`~baloot.server.http_server` sets it up (timeouts, signals).
"""

from baloot.server.history import HISTORY
from baloot.server.messages import MAX_MESSAGE
from baloot.server.publishing import Outgoing
from baloot.server.room import PROTOCOL, Room
from baloot.server.seating import Connection, RoomError

__all__ = [
    "HISTORY",
    "MAX_MESSAGE",
    "PROTOCOL",
    "Connection",
    "Outgoing",
    "Room",
    "RoomError",
]
