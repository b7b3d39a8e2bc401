"""``python -m stops``: the same as the ``stops`` command."""

from stops.apps.cli import main

raise SystemExit(main())
