"""Secrets in manifests: a Kubernetes ``kind: Secret``'s ``data``/``stringData``
values, and a private key that was base64-encoded whole (``LS0tLS1CRUdJTi…``).

A Secret's values have no shape of their own (any base64, any text, a
multi-line block scalar), so the document is what tells them apart from a
ConfigMap's: every value under ``data:`` or ``stringData:`` of a YAML document
that says ``kind: Secret`` is hidden, keys kept. Each document is read once.
The same for a Secret printed as JSON (``kube_json``).
"""

from __future__ import annotations

import base64
import binascii
import re

from toolview.safety.kube_json import is_base64, json_secret_spans
from toolview.safety.patterns import SecretPattern, Span, compile_pattern

__all__ = ["MANIFEST_PATTERNS"]

_KIND = re.compile(r"kind:[ \t]*[\"']?Secret[\"']?[ \t]*(?:\r?\n|\Z)")
# Either form, YAML or JSON. (A resource cut before its kind has no kind: the
# pattern's literals, "Secret" or "apiVersion", are what every find contains.)
_ANY_KIND = re.compile(r"kind[\"']?[ \t\r\n]*:[ \t\r\n]*[\"']?Secret")
_YAML_API = re.compile(r"^[ \t]*(?:-[ \t]+)?apiVersion:", re.MULTILINE)  # a List's item too
_YAML_ANY_KIND = re.compile(r"^[ \t]*kind:", re.MULTILINE)
_SECTION = re.compile(r"^([ \t]*)(?:data|stringData):[ \t]*\r?$", re.MULTILINE)
_ENTRY = re.compile(r"([ \t]*)[^\s:#][^:\n]*:(?:[ \t]+(\S[^\n]*?))?[ \t]*\r?$")
_B64_LINE = re.compile(r"[A-Za-z0-9+/]+={0,2}")


def _section_spans(hay: str, start: int, stop: int, name: str) -> list[Span]:
    """The values under one ``data:``/``stringData:`` key, to ``stop``."""
    match = _SECTION.search(hay, start, stop)
    spans: list[Span] = []
    while match is not None:
        indent = len(match.group(1))
        pos, block = match.end() + 1, -1
        while pos < stop:
            eol = hay.find("\n", pos, stop)
            eol = stop if eol < 0 else eol
            line = hay[pos:eol]
            depth = len(line) - len(line.lstrip(" \t"))
            if line.strip() and depth <= indent:
                break
            if block >= 0 and (depth > block or not line.strip()):
                if line.strip():
                    spans.append((pos + depth, eol, name))
            else:
                entry = _ENTRY.fullmatch(line)
                block = -1
                if entry is not None and entry.group(2) is not None:
                    value = entry.group(2)
                    if value[:1] in "|>":
                        block = depth
                    else:
                        spans.append((pos + entry.start(2), pos + entry.end(2), name))
            pos = eol + 1
        match = _SECTION.search(hay, pos, stop)
    return spans


def _cut_document(hay: str, done: int, name: str) -> list[Span]:
    """The last resource, cut before it said its kind (kubectl prints ``data``
    before ``kind``): hidden when it is a resource (``apiVersion``) whose data
    values are all base64, as a Secret's always are. In a ``kind: List`` the
    items before it said theirs (``get configmaps,secrets``): it starts
    after the last ``kind:`` line."""
    start = hay.rfind("\n---", done) + 1
    for kind in _YAML_ANY_KIND.finditer(hay, start):
        start = kind.end()
    if _YAML_API.search(hay, start) is None:
        return []
    spans = _section_spans(hay, start, len(hay), name)
    return spans if spans and all(is_base64(hay[a:b]) for a, b, _ in spans) else []


def secret_manifest_spans(hay: str, name: str) -> list[Span]:
    """Every value of every ``kind: Secret`` document's data sections (YAML or
    JSON), and of a last document cut before its kind."""
    spans = json_secret_spans(hay, name) if '"' in hay else []
    done = 0
    for kind in _KIND.finditer(hay):
        if kind.start() < done:
            continue
        start = hay.rfind("\n---", done, kind.start()) + 1
        stop = hay.find("\n---", kind.end())
        stop = len(hay) if stop < 0 else stop
        spans.extend(_section_spans(hay, max(start, done), stop, name))
        done = stop
    if done < len(hay) and "apiVersion:" in hay:
        spans.extend(_cut_document(hay, done, name))
    return spans


def _pem_base64(hay: str, match: re.Match[str], name: str) -> Span | None:
    """Only a private key's base64 (not a certificate's or public key's); a
    wrapped one (``base64`` wraps at 76) goes on over lines of the same width."""
    try:
        head = base64.b64decode(match.group()[:80] + "==", validate=False)
    except (binascii.Error, ValueError):
        return None
    if b"PRIVATE KEY" not in head:
        return None
    end, width = match.end(), match.end() - match.start()
    while width >= 60 and hay.startswith("\n", end) and end - match.start() < 1 << 16:
        line = _B64_LINE.match(hay, end + 1)
        if line is None:
            break
        end = line.end()
        if line.end() - line.start() != width:
            break
    return (match.start(), end, name)


MANIFEST_PATTERNS: tuple[SecretPattern, ...] = (
    SecretPattern(
        "kubernetes-secret", _ANY_KIND, ("Secret", "apiVersion"), scan=secret_manifest_spans
    ),
    compile_pattern(
        "private-key-base64", r"LS0tLS1CRUdJTi[A-Za-z0-9+/]*+={0,2}", locate=_pem_base64
    ),
)
