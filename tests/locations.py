"""Where the tests find the repository: its root and the bundled examples
(the tests themselves sit in folders that follow the package's layout)."""
import os

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir))
EXAMPLES = os.path.join(ROOT, "examples")
