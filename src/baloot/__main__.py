"""The ``baloot`` command (and ``python -m baloot``): the command line, ``baloot serve``,
``baloot ratings``, ``baloot screen`` and ``baloot operators``.

Here, above both, the web server's command joins the others, so that neither the command line
nor the server imports the other.
"""

import signal
import sys
from collections.abc import Sequence

#: The status after Ctrl-C (128 + SIGINT), as every command ends then.
INTERRUPTED = 130


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``baloot``; the exit status.

    The command line is imported here, not above, and each command's module when it runs, so
    that a Ctrl-C while they load (a fraction of a second) ends the command as one later
    would: status 130, no traceback. A command
    started with Ctrl-C ignored (a script's background job, a program's child that inherits
    it) still stops on it, as a person at its terminal expects.
    """
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        from baloot.cli import main as cli_main
    except KeyboardInterrupt:
        return INTERRUPTED
    extra = {
        "serve": "baloot.server.serve",
        "ratings": "baloot.server.players.ratings_command",
        "screen": "baloot.server.players.screen_command",
        "operators": "baloot.server.players.operators_command",
    }
    return cli_main(argv, extra=extra)


if __name__ == "__main__":
    sys.exit(main())
