"""``python -m baloot`` runs the command line."""

import sys

from baloot.cli import main

sys.exit(main())
