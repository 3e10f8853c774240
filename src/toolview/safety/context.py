"""Credentials recognisable only by what surrounds them.

A private-key block, the password in ``scheme://user:PASSWORD@host``, the
credentials of an ``Authorization`` or ``Cookie`` header, an AWS secret key
next to its label, an Azure ``AccountKey=``. Only the secret part is hidden:
the user, host, header name and scheme stay readable.
"""

from __future__ import annotations

import re

from toolview.safety.patterns import (
    SecretPattern,
    Span,
    accept,
    bare_run,
    compile_pattern,
    secret_span,
)
from toolview.safety.pem import PEM_PATTERN

__all__ = ["CONTEXT_PATTERNS"]

# Password: everything up to the LAST "@" before the host (a password may hold
# "@"); the scan starts only at "://" and cannot pass "/" or whitespace.
# (A value in escaped text -- a JSON string -- ends at an escaped line break or
# quote as at the character itself: ``patterns.bare_run``.)
_PASSWORD = bare_run("\\s/?#", "+")  # not possessive: it backs off to the last "@"
_URL = rf"://[^\s:/@?#\[\]]*:(?P<secret>(?!\[redacted){_PASSWORD})@"

_SCHEMES = "bearer|basic|token|digest|negotiate|ntlm|apikey"
_AUTH_VALUE = bare_run("\\s\"',;()\\[\\]{}<>")
_COOKIE_STOP = "\\r\\n\"'"  # a cookie value runs to the end of its line (or a quote)
_AUTH = (
    r"authorization[\"']?[ \t]*[:=][ \t]*[\"']?"
    rf"(?:(?:{_SCHEMES})[ \t]+)?+(?P<secret>(?!\[redacted){_AUTH_VALUE})"
)
_COOKIE = (
    r"cookie[\"']?[ \t]*[:=][ \t]*[\"']?"
    rf"(?P<secret>(?!\[redacted)(?=[^\s\"']){bare_run(_COOKIE_STOP)})"
)
_LINE_HEAD = re.compile(r"(?:[ \t<>*]*|.*[\"'][ \t]*)(?:set-)?")

_AWS_SECRET = (
    r"aws[_-]?secret[_-]?(?:access[_-]?)?key[\"']?[ \t]*[:=][ \t]*[\"']?"
    r"(?P<secret>[a-z0-9/+]{40})(?![a-z0-9/+=])"
)


def _cookie(hay: str, match: re.Match[str], name: str) -> Span | None:
    """A ``Cookie:`` header opens its line (or a quoted ``-H '...'`` argument);
    elsewhere "cookie:" is prose, left to the key/value patterns."""
    low = max(0, match.start() - 200)  # no break that far: look back 200, not to the start
    line_start = max(hay.rfind("\n", low, match.start()) + 1, low)
    if not _LINE_HEAD.fullmatch(hay, line_start, match.start()):
        return None
    begin, end = secret_span(match)
    return (begin, end, name)


def _azure(hay: str, match: re.Match[str], name: str) -> Span | None:
    """Anchored on ``Key=``; only Azure's ``AccountKey=`` / ``SharedAccessKey=``."""
    head = hay[max(0, match.start() - 12) : match.start()]
    if not (head.endswith("Account") or head.endswith("SharedAccess")):
        return None
    begin, end = secret_span(match)
    return (begin, end, name)


CONTEXT_PATTERNS: tuple[SecretPattern, ...] = (
    PEM_PATTERN,
    compile_pattern("url-password", _URL, locate=accept),
    compile_pattern("authorization-header", _AUTH, lowercase=True, locate=accept),
    compile_pattern("cookie-header", _COOKIE, lowercase=True, locate=_cookie),
    compile_pattern("aws-secret-access-key", _AWS_SECRET, lowercase=True, locate=accept),
    compile_pattern(
        "azure-storage-key",
        r"Key=(?P<secret>[A-Za-z0-9+/]{20,}={0,2})",
        locate=_azure,
    ),
)
