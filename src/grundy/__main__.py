"""``python -m grundy``: the same as the ``grundy`` console script."""
import sys

from grundy.cli import main

sys.exit(main())
