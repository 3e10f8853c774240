"""Credential-looking FAKE values, and benign look-alikes that must survive.

The values come from the safety tests' own corpus (``tests/safety/corpus.py``,
generated at run time from a fixed seed, so no real credential and no scanner
bait is ever written out): every surface runs the same secrets as the
redactor's unit tests. ``SECRETS`` maps a label to text holding one fake
credential and the exact secret part that must never appear in any output;
``BENIGN`` is ordinary high-entropy or secret-sounding text that must survive.
"""

from __future__ import annotations

from typing import Final

from safety.corpus import BENIGN as _BENIGN
from safety.corpus import SECRETS as _SECRETS

__all__ = ["BENIGN", "SECRETS", "secret_values"]

SECRETS: Final[dict[str, tuple[str, str]]] = {
    f"{number:02d}-{name}": (before + secret + after, secret)
    for number, (name, before, secret, after) in enumerate(_SECRETS)
}

BENIGN: Final[dict[str, str]] = {
    f"benign-{number:02d}": text for number, text in enumerate(_BENIGN)
}


def secret_values() -> list[str]:
    """Every secret part that must never reach any surface's output."""
    return [secret for _, secret in SECRETS.values()]
