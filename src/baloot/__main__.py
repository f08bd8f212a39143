"""The ``baloot`` command (and ``python -m baloot``): the command line and ``baloot serve``.

Here, above both, the web server's command joins the others, so that neither the command line
nor the server imports the other.
"""

import sys
from collections.abc import Sequence

from baloot.cli import main as cli_main
from baloot.server import serve


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``baloot``; the exit status."""
    return cli_main(argv, extra={"serve": serve})


if __name__ == "__main__":
    sys.exit(main())
