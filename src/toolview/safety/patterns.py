"""The shape of a secret pattern and the span-finding helpers they share.

A pattern is a compiled regex plus cheap guards: ``literals`` (skip the scan
when none occurs in the text) and ``locate`` (decide, per match, which span
to hide and under which name). Regexes start with a literal where possible so
the regex engine's prefix search does the scanning; checks that would need a
leading look-behind (which disables that fast search) live in ``locate``.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass

__all__ = [
    "SECRET_PREFIXES",
    "LazyRegex",
    "Locate",
    "Scan",
    "SecretPattern",
    "SourceRegex",
    "Span",
    "accept",
    "at_boundary",
    "bare_run",
    "compile_pattern",
    "lower_text",
    "mark",
    "secret_span",
]

Span = tuple[int, int, str]
"""``(start, end, name)``: hide ``text[start:end]`` behind ``[redacted: name]``."""

Locate = Callable[[str, re.Match[str], str], Span | None]
"""Given the scanned text, a match and the pattern's name, the span to hide."""

SECRET_PREFIXES: tuple[str, ...] = (
    *("AKIA", "ASIA", "ABIA", "ACCA", "AIza", "GOCSPX-", "ya29.", "1//0"),
    *("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "gldt-", "glrt-"),
    *("glptt-", "glsoat-", "npm_", "pypi-AgE", "sk-ant-", "sk-", "hf_"),
    *("xoxa-", "xoxb-", "xoxp-", "xoxo-", "xoxs-", "xoxr-", "xapp-"),
    *("sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_", "SG.", "key-"),
    *("shpat_", "shpca_", "shppa_", "shpss_", "dop_v1_", "doo_v1_", "dor_v1_", "dapi"),
    *(
        "AGE-SECRET-KEY-1",
        "eyJ",
        "dckr_pat_",
        "dckr_oat_",
        "hvs.",
        "hvb.",
        "hvr.",
        "LS0tLS1CRUdJTi",
    ),
    "-----BEGIN",
)
"""Literal starts of the token formats: a token that begins with one of them is
a credential to its end. For a consumer that sees text grow (a streamed
partial) and must hold back an unterminated last token that may be the first
half of a secret; ``scheme://user:`` without its ``@`` is the one contextual
case not listed (it has no fixed literal). Case-sensitive, as written."""

Scan = Callable[[str, str], list[Span]]
"""A whole-text scanner, for a format one regex match cannot describe (a
private-key block cut by a window, a Kubernetes Secret's values): given the
text and the pattern's name, every span to hide."""

_WORDISH = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")


# After a backslash: an escape (JSON's, a repr's) of a character that ends a
# bare value -- a line break, a tab, a quote, or \u of whitespace or a quote.
_BREAK = r"(?:[nrt\"']|u00(?:0[9aAdD]|2[027]))"


def bare_run(stop: str, repeat: str = "++") -> str:
    """A regex for a value: characters not in ``stop`` (a class body), ``repeat``-ed.

    In escaped text (a config file inside a JSON string: ``token = X\\nretries
    = 3``) an escape ends a value as the character it stands for would: the
    run stops at ``\\n``, ``\\t``, ``\\"``, ``\\u000a``..., so the next line is
    not hidden with the secret. Any other backslash is part of the value, and
    an escaped backslash (``\\\\``) is one character of it (``\\\\n`` goes on):
    one way only to read a run of backslashes, so a backtracking ``repeat``
    stays linear.
    """
    return rf"(?:[^{stop}\\]|\\\\|\\(?![\\]|{_BREAK})){repeat}"


def lower_text(text: str) -> str:
    """Lowercase with positions kept: U+0130 is the one code point whose
    lowercase is two characters, so it is folded to a plain ``i`` first."""
    lowered = text.lower()
    if len(lowered) != len(text):
        lowered = text.replace("\u0130", "i").lower()
    return lowered


def mark(name: str) -> str:
    """The visible stand-in for a hidden secret: ``[redacted: github-token]``."""
    return f"[redacted: {name}]"


def secret_span(match: re.Match[str]) -> tuple[int, int]:
    """The span of the first ``secret*`` group that took part, else the match.

    Several alternatives of one regex may each capture the value (quoted,
    single-quoted, bare); ``re`` forbids duplicate group names, so they are
    numbered ``secret``, ``secret2``, ...
    """
    for group in match.re.groupindex:
        if group.startswith("secret") and match.start(group) >= 0:
            return match.span(group)
    return match.span()


def at_boundary(hay: str, match: re.Match[str], name: str) -> Span | None:
    """Accept a token only when it does not continue a longer word.

    ``xAKIA...`` is the tail of some identifier, not a key id. Done here and
    not as a leading ``(?<!...)`` because a look-behind turns the engine's
    fast literal search into a slow per-position attempt (~40x on 50 MB).
    """
    start = match.start()
    if start > 0 and hay[start - 1] in _WORDISH:
        return None
    begin, end = secret_span(match)
    return (begin, end, name) if end > begin else None


def accept(hay: str, match: re.Match[str], name: str) -> Span | None:
    """Accept every match as is: for patterns anchored by their own context."""
    begin, end = secret_span(match)
    return (begin, end, name) if end > begin else None


_END = sys.maxsize  # ``re.Pattern.match``'s own default end


class LazyRegex:
    """A regex compiled when it is first matched, not when its module is imported.

    Why: the secret patterns are ~50 regexes, compiled at import they cost
    every ``toolview show`` of a small session milliseconds of start-up,
    while the prefilter reads only their source (``pattern``, ``flags``:
    ``anchors.literal_starts``) and runs a pattern only when its literal start
    occurs in a text — so most are never matched in a run. What is matched is
    the very regex the source says; nothing redacted changes.
    """

    __slots__ = ("_compiled", "flags", "pattern")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def is_compiled(self) -> bool:
        """Whether it has been compiled yet (a start-up test checks that few are)."""
        return self._compiled is not None

    def compile(self) -> re.Pattern[str]:
        """The compiled regex, compiled now if it was not."""
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self.flags)
        return self._compiled

    def finditer(self, string: str, pos: int = 0, endpos: int = _END) -> Iterator[re.Match[str]]:
        return self.compile().finditer(string, pos, endpos)

    def search(self, string: str, pos: int = 0, endpos: int = _END) -> re.Match[str] | None:
        return self.compile().search(string, pos, endpos)

    def sub(self, repl: str | Callable[[re.Match[str]], str], string: str) -> str:
        return self.compile().sub(repl, string)

    def match(self, string: str, pos: int = 0, endpos: int = _END) -> re.Match[str] | None:
        return self.compile().match(string, pos, endpos)

    def fullmatch(self, string: str, pos: int = 0, endpos: int = _END) -> re.Match[str] | None:
        return self.compile().fullmatch(string, pos, endpos)


SourceRegex = re.Pattern[str] | LazyRegex
"""A compiled regex or a lazy one: what has a ``pattern``, ``flags`` and the matching methods."""


@dataclass(frozen=True, slots=True)
class SecretPattern:
    """One named credential format.

    ``lowercase`` patterns are matched against the ASCII-lowercased text, so a
    case-insensitive key (``Password``, ``API_KEY``) costs one fast
    case-sensitive scan instead of a slow ``re.IGNORECASE`` one; their
    ``literals`` are lowercase too.
    """

    name: str
    regex: SourceRegex
    literals: tuple[str, ...] = ()
    lowercase: bool = False
    locate: Locate = at_boundary
    scan: Scan | None = None

    def spans(self, hay: str) -> list[Span]:
        """Every span this pattern hides in ``hay`` (already lowered if asked)."""
        if self.literals and not any(literal in hay for literal in self.literals):
            return []
        if self.scan is not None:
            return self.scan(hay, self.name)
        found: list[Span] = []
        for match in self.regex.finditer(hay):
            span = self.locate(hay, match, self.name)
            if span is not None:
                found.append(span)
        return found


def compile_pattern(
    name: str,
    regex: str,
    *literals: str,
    lowercase: bool = False,
    locate: Locate = at_boundary,
) -> SecretPattern:
    """Build a :class:`SecretPattern`; ``regex`` is compiled once, when first matched."""
    return SecretPattern(name, LazyRegex(regex), literals, lowercase, locate)
