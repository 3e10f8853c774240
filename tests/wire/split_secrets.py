"""A secret cut between two streamed partials: the cases, and what counts as a leak.

Every credential of the shared corpus (``tests/corpora/secrets.py``) is cut
after each of its characters: partial 1 holds ``before + secret[:k]``, partial 2
``before + secret`` (text is accumulated), then the final result
``before + secret + after``.

What a leak is, precisely: the text shown (every redaction mark blanked out)
holds a prefix of the secret LONGER than the secret's public prefix — the
fixed literal every such credential starts with (``AKIA``, ``sk_test_``, the
``-----BEGIN … PRIVATE KEY-----`` line; none for a password) — unless the
surrounding text itself holds that string (``p`` of ``p@ss…`` is also the
``p`` of ``postgres://``). Any character of the secret's random part, right
after its public prefix, is a leak.
"""

from __future__ import annotations

import re
from typing import Final

from corpora.secrets import SECRETS

__all__ = ["MARK", "SPLIT_CASES", "leak", "public_prefix"]

MARK: Final = re.compile(r"\[redacted: [^\]]*\]")

# The fixed starts of the corpus's formats: vendor literals, never random characters.
_PUBLIC: Final = re.compile(
    r"AKIA|ASIA|AIza|GOCSPX-|ya29\.|gh[pousr]_|github_pat_|glpat-|npm_|pypi-AgEIcHlwaS5vcmc"
    r"|sk-ant-api03-|sk-proj-|sk-|hf_|xox[bp]-|xapp-|https://hooks\.slack\.com/services/"
    r"|https://discord\.com/api/webhooks/|sk_live_|rk_live_|sk_test_|whsec_|SK|SG\.|key-"
    r"|shpat_|dop_v1_|dapi|AGE-SECRET-KEY-1|eyJ|-----BEGIN [A-Z ]*PRIVATE KEY-----\n"
    r"|(?:sid|session)=|\d{8,10}:AA"  # a cookie's name; a Telegram bot's (public) numeric id
)


def public_prefix(secret: str) -> str:
    """The format's fixed literal at the start of ``secret`` ("" if none)."""
    match = _PUBLIC.match(secret)
    return match.group() if match else ""


def _split(text: str, secret: str) -> tuple[str, str]:
    at = text.index(secret)
    return text[:at], text[at + len(secret) :]


SPLIT_CASES: Final = [
    (label, *_split(text, secret), secret) for label, (text, secret) in SECRETS.items()
]
"""``(label, before, after, secret)`` for every credential of the corpus."""


def leak(shown: str, before: str, secret: str, after: str) -> str | None:
    """The longest prefix of ``secret`` past its public prefix that ``shown`` gives away."""
    visible = MARK.sub("\0", shown)
    public = len(public_prefix(secret))
    for n in range(len(secret), public, -1):
        head = secret[:n]
        if head in visible:
            return None if head in before + after else head
    return None
