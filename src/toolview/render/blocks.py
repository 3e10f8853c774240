"""The ``blocks`` kind (an MCP result's content blocks): props and neutral wording.

The MCP host (``toolview.hosts.mcp.blocks``) produces these props; a surface
may not import a host, so the shape is declared again here, from the host's
published contract (/docs), and a test checks the two schemas stay identical.
Each surface lays the blocks out in order; the words for what is not shown
(audio, blobs, interactive UIs, images off HTML) are in ``words``, shared.
"""

from __future__ import annotations

from typing import Any, Literal, TypeAlias

import msgspec

from toolview.contract import Truncation

__all__ = [
    "AudioBlock",
    "Block",
    "BlocksProps",
    "ImageBlock",
    "Progress",
    "ResourceBlock",
    "ResourceLinkBlock",
    "StructuredBlock",
    "TextBlock",
    "UiBlock",
    "UnknownBlock",
]


class _Block(msgspec.Struct, frozen=True, tag_field="type", rename="camel", omit_defaults=True):
    """Base: tagged by ``type`` like MCP's blocks; absent fields never null."""


class TextBlock(_Block, frozen=True, tag="text"):
    """Plain text (MCP does not say it is Markdown, so it is not rendered as such)."""

    text: str


class ImageBlock(_Block, frozen=True, tag="image"):
    """An image's type and decoded size; ``data`` only when the host found it valid."""

    mime_type: str
    size: int | msgspec.UnsetType = msgspec.UNSET
    data: str | msgspec.UnsetType = msgspec.UNSET


class AudioBlock(_Block, frozen=True, tag="audio"):
    """Audio: what it is and how big, never its data."""

    mime_type: str
    size: int | msgspec.UnsetType = msgspec.UNSET


class ResourceLinkBlock(_Block, frozen=True, tag="resource_link"):
    """A pointer to a resource; nothing is fetched."""

    uri: str
    name: str
    title: str | msgspec.UnsetType = msgspec.UNSET
    mime_type: str | msgspec.UnsetType = msgspec.UNSET
    description: str | msgspec.UnsetType = msgspec.UNSET
    size: int | msgspec.UnsetType = msgspec.UNSET


class ResourceBlock(_Block, frozen=True, tag="resource"):
    """An embedded resource: its text, or for a blob only the blob's size."""

    uri: str
    mime_type: str | msgspec.UnsetType = msgspec.UNSET
    text: str | msgspec.UnsetType = msgspec.UNSET
    blob_size: int | msgspec.UnsetType = msgspec.UNSET


class UnknownBlock(_Block, frozen=True, tag="unknown"):
    """A block the host could not read: its raw JSON and the reason, shown visibly."""

    original_type: str
    json: Any
    reason: str | msgspec.UnsetType = msgspec.UNSET


class UiBlock(_Block, frozen=True, tag="ui"):
    """A server's interactive UI: announced, never fetched or rendered."""

    resource_uri: str
    source: Literal["meta.ui", "openai/outputTemplate", "embedded"]


class StructuredBlock(_Block, frozen=True, tag="structured"):
    """Structured content as a built-in view; ``props`` are that kind's props."""

    view: Literal["json", "table", "envelope"]
    props: dict[str, Any]
    truncated: Truncation | msgspec.UnsetType = msgspec.UNSET


Block: TypeAlias = (
    TextBlock
    | ImageBlock
    | AudioBlock
    | ResourceLinkBlock
    | ResourceBlock
    | UnknownBlock
    | UiBlock
    | StructuredBlock
)


class Progress(msgspec.Struct, frozen=True, rename="camel", omit_defaults=True):
    """The latest progress of a running call."""

    progress: float
    total: float | msgspec.UnsetType = msgspec.UNSET
    message: str | msgspec.UnsetType = msgspec.UNSET


class BlocksProps(msgspec.Struct, frozen=True, rename="camel", omit_defaults=True):
    """Props of the ``blocks`` kind: blocks in order, visible notes, progress."""

    blocks: list[Block]
    notes: list[str] = msgspec.field(default_factory=list)
    progress: Progress | msgspec.UnsetType = msgspec.UNSET
