"""Untrusted text made inert in Markdown: escaped inline, fenced in blocks.

Inline text has every character with Markdown meaning backslash-escaped and
``<``/``>``/``&`` written as entities, so it can never open a tag, a link or an
emphasis. A block goes in a fenced code block whose fence is longer than any
backtick run inside it, so the content cannot close the fence early. A window
of output is such a block, with what was left out said around it in an
escaped paragraph of its own.
"""

from __future__ import annotations

import re
from typing import Final

from toolview.contract import Truncation
from toolview.render.limits import Omission, Window, truncation_omission
from toolview.render.words import omission_line
from toolview.safety import safe_url

__all__ = [
    "code_block",
    "code_span",
    "cut_md",
    "inline",
    "link",
    "markdown_source",
    "omission_md",
    "truncation_md",
    "window_block",
]

_SPECIAL: Final = re.compile(r"([\\`*_\[\]|~])")
# Characters with meaning only at the start of a line: headings, lists, quotes.
_LEADING: Final = re.compile(r"^(\s*)([#+=-]|\d+[.)])")
_ENTITIES: Final = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
_ENTITY: Final = re.compile(r"[&<>]")
_BACKTICKS: Final = re.compile(r"`+")
_LANGUAGE: Final = re.compile(r"[^A-Za-z0-9_+-]")
_FENCE_LINE: Final = re.compile(r"^ {0,3}(`{3,}|~{3,})")
# A link destination: after "](" (inline) or "[label]:" (a reference definition).
_DESTINATION: Final = re.compile(r"(\]\(|^ {0,3}\[[^\]\n]+\]:)([ \t]*)([^\s)]*)")


def inline(text: str) -> str:
    """One line of inert inline Markdown (newlines become spaces)."""
    flat = " ".join(text.split("\n"))
    escaped = _LEADING.sub(_escape_leading, _SPECIAL.sub(r"\\\1", flat))
    return _ENTITY.sub(lambda match: _ENTITIES[match.group()], escaped)


def _escape_leading(match: re.Match[str]) -> str:
    marker = match.group(2)
    return f"{match.group(1)}{marker[:-1]}\\{marker[-1]}"


def code_span(text: str) -> str:
    """An inline code span that no backtick inside can close."""
    flat = " ".join(text.split("\n"))
    longest = max((len(run) for run in _BACKTICKS.findall(flat)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if flat.startswith(("`", " ")) or flat.endswith(("`", " ")) or not flat else ""
    return f"{fence}{pad}{flat}{pad}{fence}"


def code_block(text: str, language: str = "text") -> str:
    """A fenced block: the fence is longer than any backtick run in ``text``."""
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * max(3, longest + 1)
    info = _LANGUAGE.sub("", language)[:30]
    body = text[:-1] if text.endswith("\n") else text
    return f"{fence}{info}\n{body}\n{fence}"


def omission_md(omission: Omission | None) -> list[str]:
    """``_… 4,000 more lines_`` as its own paragraph, or nothing."""
    return [f"_{inline(str(omission))}_"] if omission else []


def truncation_md(truncated: Truncation | None) -> list[str]:
    """The descriptor's truncation as its own paragraph, or nothing."""
    return omission_md(truncation_omission(truncated))


def window_block(
    window: Window,
    language: str = "text",
    tool: Omission | None = None,
    *,
    tool_before: bool = False,
) -> list[str]:
    """A cleaned window in a fenced block, with the omission wording around it.

    ``tool`` (the tool's own truncation) joins this surface's cut on that side
    in one line — before for a tail, after for a head.
    """
    return [
        *cut_md(window.before, tool if tool_before else None),
        code_block(window.text, language),
        *cut_md(window.after, None if tool_before else tool),
    ]


def cut_md(shown: Omission | None, tool: Omission | None) -> list[str]:
    """``_… 9,900 more lines (9,000 not in the result)_`` as a paragraph, or nothing."""
    line = omission_line(shown, tool)
    return [f"_{inline(line)}_"] if line else []


def link(title: str, url: str) -> str:
    """``[title](url)`` for an http/https URL; otherwise the title and the URL as code."""
    safe = safe_url(url)
    if safe is None:
        return f"{inline(title)} ({code_span(url)}, not an http/https link)"
    quoted = "".join(f"%{ord(c):02X}" if c in " <>()\\\n" else c for c in safe)
    return f"[{inline(title)}]({quoted})"


def markdown_source(text: str) -> str:
    """A tool's own Markdown, kept as Markdown but made inert.

    Outside fenced code, ``&``, ``<`` and ``>`` become entities (no raw HTML, no
    entity-encoded scheme tricks), images become plain links (no remote fetch
    when the document is opened) and a link whose target ``safe_url`` rejects
    (another scheme, ``//host``, ``https://good@evil``, a relative path) is
    shown as text -- the same rule the other surfaces apply to a link.
    """
    out: list[str] = []
    fence: str | None = None
    for line in text.split("\n"):
        match = _FENCE_LINE.match(line)
        if fence is not None:
            out.append(line)
            if match and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence):
                fence = None
            continue
        if match:
            fence = match.group(1)
            out.append(line)
            continue
        inert = _ENTITY.sub(lambda m: _ENTITIES[m.group()], line).replace("![", "\\![")
        out.append(_DESTINATION.sub(_defang, inert))
    if fence is not None:
        out.append(fence)  # close a fence the document left open
    return "\n".join(out)


def _defang(match: re.Match[str]) -> str:
    """Keep a destination ``safe_url`` accepts; otherwise break the link syntax
    and show the target as code, so no renderer makes it a link."""
    opener, space, target = match.groups()
    if target and safe_url(target) is not None:
        return match.group(0)
    shown = f"{code_span(target)}, not an http/https link"
    if opener == "](":
        return f"] ({shown}"
    return f"\\{opener.lstrip()}{space or ' '}({shown})"
