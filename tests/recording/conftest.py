"""capture()'s tests run real servers: the helpers live beside the wire's tests."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "wire"))
