"""``python -m bohnteach.upstream``: run the adapters' self-checks (see the package)."""
import sys

from bohnteach.upstream import main

sys.exit(main())
