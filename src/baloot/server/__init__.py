"""The web server: the table protocol ``baloot-table/1`` (``seat-view.md`` §4) over a
:class:`~baloot.table.Table`, in layers of their own.

- :mod:`~baloot.server.room`: a :class:`Room` speaks the protocol in process, as plain dicts,
  free of sockets and clocks; :mod:`~baloot.server.messages` reads and builds its messages;
  :mod:`~baloot.server.seating` says who sits where (tokens, connections, stand-ins).
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

from baloot.server.messages import MAX_MESSAGE
from baloot.server.room import HISTORY, PROTOCOL, Outgoing, Room
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
