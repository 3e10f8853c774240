"""The ``blocks`` kind: an MCP result's content blocks, as renderer props.

An MCP result is a *list* of blocks (text, images, audio, links, embedded
resources, and types a client may not know yet), so it needs a kind of its own.
This module is its one definition — static type, wire shape and, through
``toolview.contract.props`` and ``toolview.contract.schema``, validator and
JSON Schema — shared by the producer (the MCP host) and every surface, which is
why it lives in the contract: a surface may not import a host. Binary data
never appears here except an image's base64, which only HTML may show after its
own checks.
"""

from __future__ import annotations

from typing import Any, Final, Literal, TypeAlias

import msgspec

from toolview.contract.descriptor import Truncation

__all__ = [
    "BLOCKS_KIND",
    "AudioBlock",
    "Block",
    "BlocksProps",
    "ImageBlock",
    "Progress",
    "ResourceBlock",
    "ResourceLinkBlock",
    "StructuredBlock",
    "StructuredView",
    "TextBlock",
    "UiBlock",
    "UiSource",
    "UnknownBlock",
]

BLOCKS_KIND: Final = "blocks"

StructuredView: TypeAlias = Literal["json", "table", "envelope"]
UiSource: TypeAlias = Literal["meta.ui", "openai/outputTemplate", "embedded"]


class _Block(msgspec.Struct, frozen=True, tag_field="type", rename="camel", omit_defaults=True):
    """Base: tagged by ``type`` like MCP's own blocks; absent fields never null."""


class TextBlock(_Block, frozen=True, tag="text"):
    """Plain text from the server (not Markdown: MCP does not say it is)."""

    text: str


class ImageBlock(_Block, frozen=True, tag="image"):
    """An image: its MIME type and decoded size; ``data`` only when valid and small enough."""

    mime_type: str
    size: int | msgspec.UnsetType = msgspec.UNSET
    data: str | msgspec.UnsetType = msgspec.UNSET


class AudioBlock(_Block, frozen=True, tag="audio"):
    """Audio is never carried: only what it is and how big."""

    mime_type: str
    size: int | msgspec.UnsetType = msgspec.UNSET


class ResourceLinkBlock(_Block, frozen=True, tag="resource_link"):
    """A pointer to a resource the server can read; nothing is fetched."""

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
    """A block toolview could not read, kept visibly with its raw JSON and the reason."""

    original_type: str
    json: Any
    reason: str | msgspec.UnsetType = msgspec.UNSET


class UiBlock(_Block, frozen=True, tag="ui"):
    """A pointer to a server's interactive UI; toolview never renders a server's HTML."""

    resource_uri: str
    source: UiSource


class StructuredBlock(_Block, frozen=True, tag="structured"):
    """``structuredContent`` as one of the built-in views: props of that built-in kind."""

    view: StructuredView
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
    """The latest progress notification of a running call."""

    progress: float
    total: float | msgspec.UnsetType = msgspec.UNSET
    message: str | msgspec.UnsetType = msgspec.UNSET


class BlocksProps(msgspec.Struct, frozen=True, rename="camel", omit_defaults=True):
    """Props of the ``blocks`` kind: the blocks to show, in order, and visible notes."""

    blocks: list[Block]
    notes: list[str] = msgspec.field(default_factory=list)
    progress: Progress | msgspec.UnsetType = msgspec.UNSET
