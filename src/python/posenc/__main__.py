"""python -m posenc: the CLI (posenc/cli.py)."""

import sys

from .cli import main

sys.exit(main())
