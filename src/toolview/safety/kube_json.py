"""A Kubernetes Secret printed as JSON (``kubectl get secret -o json``).

Its values sit under ``"data"``/``"stringData"`` of the object that says
``"kind": "Secret"`` -- before or after that key, beside a ``metadata`` whose
annotations may hold whole JSON documents in strings. So the text is read once
as a stream of JSON tokens (strings and braces), keeping a stack of open
objects: an object that turns out to be a Secret has the string values of its
data objects hidden when it closes. A ConfigMap's ``data`` is left alone.
An object the text ends inside, cut before it said its kind (kubectl prints
``data`` before ``kind``), is hidden too when it has an ``apiVersion`` and all
its data values are base64, as a Secret's always are. Run only when the text
holds a ``"kind": "Secret"`` or an ``"apiVersion"``; linear.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from toolview.safety.patterns import LazyRegex, Span

__all__ = ["JSON_KIND", "is_base64", "json_secret_spans"]

JSON_KIND = LazyRegex(r"\"kind\"[ \t\r\n]*:[ \t\r\n]*\"Secret\"")
_BASE64 = LazyRegex(r"[A-Za-z0-9+/]+={0,2}")
# A string, a key (a string and its colon), a brace. A quote not closed on its
# line is a token too, to the line's end (skipped): were it no match, the scan
# would retry at every escaped quote inside it, quadratic on a long line.
_TOKEN = LazyRegex(
    r"\"(?:[^\"\\\n]|\\.)*+(?:\"(?P<key>[ \t\r\n]*:)?|(?P<cut>))|(?P<open>\{)|(?P<close>\})"
)


@dataclass
class _Object:
    """One open JSON object: is it a Secret, and the string values of its data."""

    secret: bool = False
    resource: bool = False  # it has an "apiVersion"
    kind: bool = False  # it said its kind (whatever it is)
    data: list[tuple[int, int]] = field(default_factory=list)
    data_depth: int = -1  # the stack depth of its data object, while inside it


def json_secret_spans(hay: str, name: str) -> list[Span]:
    """The string values of every JSON Secret's ``data``/``stringData``."""
    if JSON_KIND.search(hay) is None and '"apiVersion"' not in hay:
        return []
    spans: list[Span] = []
    stack: list[_Object] = []
    key = ""
    for token in _TOKEN.finditer(hay):
        if token.group("open"):
            stack.append(_Object())
            if len(stack) > 1 and key in ('"data"', '"stringData"'):
                stack[-2].data_depth = len(stack)
        elif token.group("close"):
            if stack:
                closed = stack.pop()
                if closed.secret:
                    spans.extend((start, end, name) for start, end in closed.data)
                if stack and stack[-1].data_depth == len(stack) + 1:
                    stack[-1].data_depth = -1
        elif stack and token.group("cut") is None:
            _string(hay, token, stack)
        key = token.group()[: token.start("key") - token.start()] if token.group("key") else ""
    for cut in stack:  # objects the text ends inside: cut before they said their kind
        encoded = cut.data and all(is_base64(hay[start:end]) for start, end in cut.data)
        if cut.resource and not cut.kind and encoded:
            spans.extend((start, end, name) for start, end in cut.data)
    return spans


def is_base64(value: str) -> bool:
    """Padded base64 of at least one byte: what a Secret's ``data`` values are."""
    return len(value) >= 4 and len(value) % 4 == 0 and _BASE64.fullmatch(value) is not None


def _string(hay: str, token: re.Match[str], stack: list[_Object]) -> None:
    """A key (``"kind": "Secret"`` marks its object) or a value inside a data object."""
    if token.group("key"):
        text = token.group()
        if text.startswith('"kind"'):
            stack[-1].kind = True
            stack[-1].secret = JSON_KIND.match(hay, token.start()) is not None
        elif text.startswith('"apiVersion"'):
            stack[-1].resource = True
    elif len(stack) > 1 and stack[-2].data_depth == len(stack):
        stack[-2].data.append((token.start() + 1, token.end() - 1))
