"""Puts ``tests/`` (the shared hostile corpora) and this folder (``render_samples``)
on ``sys.path`` so the render tests import them whatever order pytest collects in."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).parent
for folder in (str(HERE.parent), str(HERE)):
    if folder not in sys.path:
        sys.path.insert(0, folder)
