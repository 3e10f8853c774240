"""The one walk over a ``blocks`` result that every surface shares.

The order is the same everywhere — progress, each MCP content block (bounded),
what was left out, the notes, or a word that there is no content — and so is
what a block is decided to be: its text window, a media label, a link, a
resource, a note with the JSON of what could not be read, an interactive UI's
notice, or structured content validated for its view and rendered by the
caller's registry (a kind's override holds inside a ``blocks`` result too). A
surface subclasses ``BlocksLayout`` and only says how each of those pieces looks.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Final, Generic, TypeVar

from toolview.contract import Truncation
from toolview.render.blocks import (
    AudioBlock,
    Block,
    BlocksProps,
    ImageBlock,
    Progress,
    ResourceBlock,
    ResourceLinkBlock,
    StructuredBlock,
    TextBlock,
    UiBlock,
    UnknownBlock,
)
from toolview.render.bodies import FallbackBody, KindBody
from toolview.render.clean import clean_field, shown_text
from toolview.render.limits import Limits, Omission, Window
from toolview.render.props import PropsError, validate_props
from toolview.render.registry import Registry
from toolview.render.words import resource_label, ui_notice

__all__ = ["NOTE_CHARS", "BlocksLayout", "nested_registry"]

NOTE_CHARS: Final = 500
T = TypeVar("T")


def nested_registry(body: KindBody, default: Registry[T]) -> Registry[T]:
    """The registry rendering ``body`` (``Registry.render`` sets it), else ``default``
    (the surface's built-in renderers, for a renderer called by hand)."""
    return body.registry if isinstance(body.registry, Registry) else default


class BlocksLayout(ABC, Generic[T]):
    """One surface's pieces of a ``blocks`` result; ``walk`` puts them in order."""

    def walk(self, props: BlocksProps, limits: Limits, registry: Registry[T]) -> list[T]:
        """Progress, the shown blocks, what was left out, the notes (or: no content).

        Structured content is rendered by ``registry``: the one the caller passed.
        """
        limit = limits.max_json_items
        out = [self.progress(props.progress)] if isinstance(props.progress, Progress) else []
        for index, block in enumerate(props.blocks[:limit]):
            separator = self.separator() if index else None
            if separator is not None:
                out.append(separator)
            out.append(self.block(block, limits, registry))
        if len(props.blocks) > limit:
            out.append(self.blocks_left(Omission(len(props.blocks) - limit, "items")))
        out += [self.note(clean_field(note, NOTE_CHARS, "space")) for note in props.notes[:limit]]
        if not props.blocks and not props.notes:
            out.append(self.no_content())
        return out

    def block(self, block: Block, limits: Limits, registry: Registry[T]) -> T:
        """One block, by its type."""
        if isinstance(block, TextBlock):
            return self.text(shown_text(block.text, limits) if block.text else None)
        if isinstance(block, ImageBlock | AudioBlock):
            return self.media(block)
        if isinstance(block, ResourceLinkBlock):
            return self.resource_link(block)
        if isinstance(block, ResourceBlock):
            text = block.text if isinstance(block.text, str) else ""
            return self.resource(resource_label(block), shown_text(text, limits) if text else None)
        if isinstance(block, UnknownBlock):
            reason = (
                f": {clean_field(block.reason, 300, 'space')}"
                if isinstance(block.reason, str)
                else ""
            )
            kind = clean_field(block.original_type, 100)
            return self.noted_json(f"unreadable block of type '{kind}'{reason}", block.json, limits)
        if isinstance(block, UiBlock):
            return self.ui(ui_notice(block))
        return self._structured(block, limits, registry)

    def separator(self) -> T | None:
        """What stands between two blocks; nothing unless a surface says so."""
        return None

    def _structured(self, block: StructuredBlock, limits: Limits, registry: Registry[T]) -> T:
        """Structured content validated for its view and rendered by ``registry``;
        its JSON under a note saying why not when it is invalid, or its view has no
        renderer there, or that renderer fails."""
        truncated = block.truncated if isinstance(block.truncated, Truncation) else None
        try:
            props = validate_props(block.view, block.props)
        except PropsError as exc:
            reason = clean_field(str(exc), 300, "space")
            note = f"structured content is not a valid '{block.view}': {reason}"
            return self.noted_json(note, block.props, limits)

        def fallback(body: FallbackBody) -> T:
            return self.noted_json(f"{body.note}; showing its JSON", block.props, limits)

        return registry.render(KindBody(block.view, props, "", limits, truncated), fallback)

    @abstractmethod
    def progress(self, progress: Progress) -> T:
        """The progress line the server sent with the result."""

    @abstractmethod
    def blocks_left(self, omission: Omission) -> T:
        """How many blocks were not shown."""

    @abstractmethod
    def note(self, text: str) -> T:
        """A visible note (cleaned)."""

    @abstractmethod
    def no_content(self) -> T:
        """A result with neither blocks nor notes, said in words."""

    @abstractmethod
    def text(self, window: Window | None) -> T:
        """A text block's cleaned window; ``None`` for an empty text."""

    @abstractmethod
    def media(self, block: ImageBlock | AudioBlock) -> T:
        """An image or audio block."""

    @abstractmethod
    def resource_link(self, block: ResourceLinkBlock) -> T:
        """A link to a resource (its uri may be any scheme)."""

    @abstractmethod
    def resource(self, label: str, window: Window | None) -> T:
        """An embedded resource: its label, then its text (``None`` for a blob)."""

    @abstractmethod
    def noted_json(self, note: str, value: object, limits: Limits) -> T:
        """A note saying what could not be read, then its bounded JSON."""

    @abstractmethod
    def ui(self, notice: str) -> T:
        """The notice for an interactive UI that is never fetched."""
