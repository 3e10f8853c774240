"""Credentials on a command line or in a config line: ``curl -u user:PW``,
``mysql -pPW``, ``.netrc``'s ``password PW``, a signed URL's signature, a
``.env`` key ending in ``_KEY``/``_PASS``.

Each is recognisable only by the command or the shape around it, so every
pattern checks that context in its ``locate`` (the command earlier on the same
line, a ``?``/``&`` before a query parameter, an upper-case env name that is
not a public or database key) and hides the secret part only.
"""

from __future__ import annotations

import re

from toolview.safety.patterns import (
    LazyRegex,
    Locate,
    SecretPattern,
    Span,
    bare_run,
    compile_pattern,
    secret_span,
)

__all__ = ["COMMAND_PATTERNS"]

# Quoted, quoted with an escaped quote (a command in a JSON string), or bare: a
# bare value ends at an escaped line break or quote as at the character itself.
_ESCAPED_QUOTED = bare_run("\"'\\n")
_BARE = bare_run("\\s\"'`;|&<>")
_VALUE = (
    r"(?:\"(?P<secret>[^\"\n]*)\"|'(?P<secret2>[^'\n]*)'"
    rf"|\\[\"'](?P<secret4>{_ESCAPED_QUOTED})|(?P<secret3>{_BARE}))"
)
_NETRC = bare_run("\\s")
_SIGNATURE = bare_run("\\s&#\"'<>", "{16,}+")
_PLACEHOLDER = ("$", "<", "{{", "%(", "[redacted", "*")
_PUBLIC_KEYS = frozenset(
    {"PRIMARY", "FOREIGN", "SORT", "PARTITION", "HASH", "RANGE", "CACHE", "LOOKUP", "UNIQUE"}
    | {"COMPOSITE", "ROUTING", "SHARD", "IDEMPOTENCY", "INDEX", "GROUP", "MAP", "PUBLIC", "PUB"}
)
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_NETRC_LINE = LazyRegex(
    r"[^\w\n]{0,8}(?:(?:machine|default)\b.*\blogin[ \t]+\S+[ \t]+|login[ \t]+\S+[ \t]+)?"
)
_NETRC_PREVIOUS = LazyRegex(r"[^\w\n]{0,8}(?:machine|login|default|account)\b")


def _line_start(hay: str, start: int) -> int:
    """Where the command line holding ``start`` begins, across ``\\`` continuations.

    At most 1,000 characters back: a line with no break that far is cut
    there, so a check costs the same on one long line as on many short ones.
    """
    low = max(0, start - 1000)
    begin = hay.rfind("\n", low, start)
    while begin > low and hay[max(0, begin - 2) : begin].rstrip("\r").endswith("\\"):
        begin = hay.rfind("\n", low, begin - 1)
    return max(begin + 1, low)


def _value(hay: str, match: re.Match[str], name: str) -> Span | None:
    return _value_span(hay, *secret_span(match), name)


def _after_command(words: tuple[str, ...]) -> Locate:
    """A flag's value, when one of ``words`` (the command) comes earlier on its line."""

    def locate(hay: str, match: re.Match[str], name: str) -> Span | None:
        start = match.start()
        if start == 0 or hay[start - 1] not in " \t":
            return None
        line = _line_start(hay, start)
        if not any(hay.find(word, line, start) >= 0 for word in words):
            return None
        begin, end = secret_span(match)
        value = hay[begin:end]
        if words[0] == "curl":  # user:password -- no colon, curl prompts
            user, colon, _ = value.partition(":")
            if not colon or user.startswith("$"):
                return None
            begin += len(user) + 1
        return _value_span(hay, begin, end, name)

    return locate


def _value_span(hay: str, begin: int, end: int, name: str) -> Span | None:
    if end <= begin or hay[begin:end].startswith(_PLACEHOLDER):
        return None
    return (begin, end, name)


def _netrc(hay: str, match: re.Match[str], name: str) -> Span | None:
    low = max(0, match.start() - 1000)
    line_start = hay.rfind("\n", low, match.start()) + 1
    if line_start == 0 < low:
        return None  # not a .netrc line: no break in 1,000 characters
    if not _NETRC_LINE.fullmatch(hay, line_start, match.start()):
        return None
    if not hay[line_start : match.start()].strip(" \t-+>#*|[(\"'`"):
        previous = hay.rfind("\n", max(0, line_start - 1000), max(0, line_start - 1)) + 1
        if line_start == 0 or not _NETRC_PREVIOUS.match(hay, previous, line_start):
            return None
    return _value(hay, match, name)


def _signed(hay: str, match: re.Match[str], name: str) -> Span | None:
    head = hay[max(0, match.start() - 8) : match.start()]
    for vendor in ("x-amz-", "x-goog-"):
        if head.endswith(vendor):
            head = head[: -len(vendor)]
    if not head.endswith(("?", "&", ";")):
        return None
    return _value(hay, match, name)


def _env(hay: str, match: re.Match[str], name: str) -> Span | None:
    start = match.start()
    head = start
    while head > 0 and start - head < 64 and hay[head - 1] in _NAME_CHARS:
        head -= 1
    if head == start or (head > 0 and hay[head - 1].isalnum()):
        return None
    parts = hay[head:start].split("_")
    if _PUBLIC_KEYS.intersection(parts) or "PUBLIC" in hay[head:start]:
        return None
    span = _value(hay, match, name)
    value = hay[span[0] : span[1]].lower() if span else ""
    if span is None or value.startswith(("/", "~", "./")) or value == hay[head:start].lower():
        return None
    if value in ("true", "false", "null", "none", "1", "0") or value.endswith("_key"):
        return None
    return (span[0], span[1], "env-pass" if hay.startswith("_PASS", start) else name)


COMMAND_PATTERNS: tuple[SecretPattern, ...] = (
    compile_pattern(
        "signed-url-signature",
        rf"sig(?:nature)?=(?P<secret>{_SIGNATURE})",
        lowercase=True,
        locate=_signed,
    ),
    compile_pattern("env-key", rf"_(?:KEY|PASS)[ \t]*[=:][ \t]*{_VALUE}", locate=_env),
    compile_pattern(
        "curl-password",
        rf"-(?:u|-user)(?:[ \t]+|=)?{_VALUE}",
        "curl",
        locate=_after_command(("curl",)),
    ),
    compile_pattern(
        "mysql-password",
        rf"-p{_VALUE}",
        "mysql",
        locate=_after_command(("mysql",)),
    ),
    compile_pattern(
        "netrc-password", rf"password[ \t]+(?P<secret>{_NETRC})", "login", locate=_netrc
    ),
)
