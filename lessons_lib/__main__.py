"""Entry point for ``python -m lessons_lib``."""

import sys

from lessons_lib.cli import main

sys.exit(main())
