"""``python -m toolview``: the same as the ``toolview`` command."""

from toolview.cli import main

raise SystemExit(main())
