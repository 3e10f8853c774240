"""Pointers to a server's interactive UI, recognised so they can be announced.

MCP Apps put ``_meta.ui.resourceUri`` (earlier drafts ``_meta["ui/resourceUri"]``)
on a tool or its result; the OpenAI Apps SDK puts ``_meta["openai/outputTemplate"]``;
older servers embed a ``ui://`` resource (handled with the other blocks).
toolview never renders a server's HTML: it shows a notice and the text fallback.
"""

from __future__ import annotations

from collections.abc import Mapping

from toolview.contract.blocks import UiBlock, UiSource

__all__ = ["ui_pointers"]


def ui_pointers(*metas: object) -> tuple[list[UiBlock], list[str]]:
    """UI blocks named in the given ``_meta`` bags (deduplicated), and notes on malformed ones."""
    blocks: list[UiBlock] = []
    notes: list[str] = []
    seen: set[str] = set()
    for meta in metas:
        if not isinstance(meta, Mapping):
            continue
        for uri, source in _candidates(meta, notes):
            if uri not in seen:
                seen.add(uri)
                blocks.append(UiBlock(resource_uri=uri, source=source))
    return blocks, notes


def _candidates(meta: Mapping[object, object], notes: list[str]) -> list[tuple[str, UiSource]]:
    found: list[tuple[str, UiSource]] = []
    ui = meta.get("ui")
    if isinstance(ui, Mapping) and "resourceUri" in ui:
        _take(ui.get("resourceUri"), "meta.ui", "_meta.ui.resourceUri", found, notes)
    if "ui/resourceUri" in meta:
        _take(meta.get("ui/resourceUri"), "meta.ui", "_meta['ui/resourceUri']", found, notes)
    if "openai/outputTemplate" in meta:
        template = meta.get("openai/outputTemplate")
        _take(template, "openai/outputTemplate", "_meta['openai/outputTemplate']", found, notes)
    return found


def _take(
    value: object, source: UiSource, where: str, found: list[tuple[str, UiSource]], notes: list[str]
) -> None:
    if isinstance(value, str) and value:
        found.append((value, source))
    else:
        notes.append(f"{where} is not a non-empty string; ignored")
