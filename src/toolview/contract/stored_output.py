"""An output its agent stored apart from the session: where, how big, whether it is here.

Claude Code keeps an output over ~30,000 characters in a file beside the
session (``<session>/tool-results/<id>.txt``) and writes only a preview into
the session. A reader that follows the file puts the whole output in the
result's text (``whole``); one that cannot keeps the preview. Either way the
result says so, here, once: every surface words it from this (the path, the
size), and the live page offers the whole output on demand. ``path`` is the
file as the session named it (the writing machine's absolute path: data to
show, redacted and escaped like every string, never a path anything opens).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from toolview.contract.types import NonEmptyStr, NonNegativeInt

__all__ = ["StoredOutput"]


class StoredOutput(msgspec.Struct, frozen=True, forbid_unknown_fields=True, rename="camel"):
    """The file an output was stored in, its full size in bytes, and whether the text is whole."""

    path: NonEmptyStr
    whole: bool
    size: NonNegativeInt | msgspec.UnsetType = msgspec.UNSET

    if TYPE_CHECKING:

        def __init__(
            self, path: str, whole: bool, size: int | msgspec.UnsetType | None = msgspec.UNSET
        ) -> None: ...

    def __post_init__(self) -> None:
        """Wrong fields fail here, naming the field (msgspec checks only what it decodes)."""
        if type(self.path) is not str or not self.path:
            raise ValueError("StoredOutput.path: must be a non-empty string")
        if type(self.whole) is not bool:
            raise TypeError("StoredOutput.whole: expected a bool")
        if self.size is None:
            msgspec.structs.force_setattr(self, "size", msgspec.UNSET)
        elif self.size is not msgspec.UNSET and (type(self.size) is not int or self.size < 0):
            raise ValueError("StoredOutput.size: must be a non-negative integer")
