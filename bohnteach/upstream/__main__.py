"""``python -m bohnteach.upstream``: run the adapters' self-checks (see the package)."""
import sys

from bohnteach.upstream import main

if __name__ == "__main__":  # imported by a walk over the package (the static site's test): nothing
    sys.exit(main())
