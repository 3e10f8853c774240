"""Redacting the text of a call that is still running: hold back its last token.

A running call's text is ACCUMULATED and may stop anywhere, in the middle of
a credential: ``key id AKIAIOSF`` is not yet an AWS key id to any pattern,
and the next update completes it, too late, since the first half has
crossed. So while a call runs, what may be sent ends at the last whitespace:
the unterminated last token is held back and goes with the next update (or
the final result, redacted whole). Every surface that shows running output
(live follow frames, the events listing of stored partials) uses this one
rule.

A token over ``HOLD_LIMIT`` characters (a minified file, a base64 dump) is
not held whole, or its output would never show while it runs: its head is
sent, but the word crossing the limit is held from its start. Only a word
itself over the limit (a blob) is cut, and not even that when it starts with
a known secret prefix or follows ``scheme://user:`` with no ``@`` yet: such a
word is secret to its end however long it grows. (Below the limit the whole
last token is held anyway, which covers every prefix.)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from toolview.safety.patterns import SECRET_PREFIXES, LazyRegex
from toolview.safety.secrets import redact

__all__ = ["HOLD_LIMIT", "held_back", "redact_partial"]

HOLD_LIMIT: Final = 4096

_WORD: Final = r"A-Za-z0-9_\-+/=.~%"  # what a token, key or base64 body is made of
_LAST_SPACE: Final = LazyRegex(r"\s\S*\Z")
_UP_TO_WORD: Final = LazyRegex(rf".*[^{_WORD}]", re.DOTALL)  # greedy: ends where a word starts
_PREFIX: Final = LazyRegex("|".join(map(re.escape, SECRET_PREFIXES)))
_URL_USER: Final = LazyRegex(r"[A-Za-z][A-Za-z0-9+.-]*://[^\s/?#@:]*:[^\s/?#@]*\Z")
_PREFIX_REACH: Final = 64  # a prefix this far into a word makes the word a secret


def held_back(text: str) -> int:
    """Where the part of a running call's text that must not be sent yet begins."""
    soft = max(0, len(text) - HOLD_LIMIT)
    space = _LAST_SPACE.search(text, soft)
    if space is not None:
        return space.start() + 1
    return 0 if soft == 0 else _overlong(text, soft)


def _overlong(text: str, soft: int) -> int:
    """The last token is over ``HOLD_LIMIT``: send up to ``soft``, but cut no word."""
    head = _UP_TO_WORD.match(text, 0, soft)
    word = head.end() if head is not None else 0
    if soft - word <= HOLD_LIMIT:
        return word
    if _PREFIX.search(text, word, min(soft, word + _PREFIX_REACH)):
        return word
    if _URL_USER.search(text, max(0, word - 256), word):
        return word
    return soft  # a word longer than the limit with nothing secret-like: a blob


def redact_partial(text: str, redact_text: Callable[[str], str] = redact) -> str:
    """The redacted text of a running call, its unterminated last token held back."""
    return redact_text(text[: held_back(text)])
