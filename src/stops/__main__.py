"""``python -m stops`` and the ``stops`` command (:func:`run`).

The command line is imported here, inside :func:`run`, so that a Ctrl-C while Python is still
loading it ends the command as quietly as one during a run: one line, exit status 130, no
traceback.
"""

from __future__ import annotations

import sys


def run() -> int:
    """The ``stops`` command: :func:`stops.apps.cli.main` on ``sys.argv``."""
    try:
        from stops.apps.cli import main
    except KeyboardInterrupt:
        print("stops: interrupted", file=sys.stderr)
        return 130
    return main()


if __name__ == "__main__":
    raise SystemExit(run())
