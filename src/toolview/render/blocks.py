"""The ``blocks`` kind's props, as the surfaces see them.

The one definition lives in ``toolview.contract.blocks`` (the MCP host produces
these props, every surface validates them); this module re-exports it under the
render package so surface code imports its shapes from one place. The words for
what is not shown (audio, blobs, interactive UIs, images off HTML) are in
``toolview.render.words``.
"""

from toolview.contract.blocks import (
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
