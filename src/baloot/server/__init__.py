"""The server: the table protocol ``baloot-table/1`` (``seat-view.md`` §4) over a :class:`Table`.

:class:`~baloot.server.room.Room` speaks the protocol in process, as plain dicts, free of
sockets and clocks; a web server drives it (see its module).
"""

from baloot.server.messages import MAX_MESSAGE
from baloot.server.room import (
    HISTORY,
    PROTOCOL,
    Connection,
    Outgoing,
    Room,
    RoomError,
)

__all__ = [
    "HISTORY",
    "MAX_MESSAGE",
    "PROTOCOL",
    "Connection",
    "Outgoing",
    "Room",
    "RoomError",
]
