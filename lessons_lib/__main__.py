"""Entry point for ``python -m lessons_lib`` (the commands lesson 10's cheat sheet lists)."""

import sys

from lessons_lib.cli import main

sys.exit(main())
