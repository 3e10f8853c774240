"""Put the server and wire test helpers (real processes, the SSE reader) on ``sys.path``."""

from __future__ import annotations

import sys
from pathlib import Path

_TESTS = Path(__file__).resolve().parents[1]
for _folder in (_TESTS / "wire", _TESTS / "server", _TESTS / "faults"):
    if str(_folder) not in sys.path:
        sys.path.insert(0, str(_folder))
