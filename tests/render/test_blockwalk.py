"""The shared walk over a ``blocks`` result: the order, the bounds and what each block is."""

from __future__ import annotations

from typing import Any

from render_samples import BLOCKS

from toolview.render import DEFAULT_LIMITS, Limits, Omission, Window, validate_props
from toolview.render.blocks import (
    AudioBlock,
    BlocksProps,
    ImageBlock,
    Progress,
    ResourceLinkBlock,
)
from toolview.render.blockwalk import BlocksLayout
from toolview.render.bodies import KindBody
from toolview.render.registry import Registry


class Tags(BlocksLayout[str]):
    """Each piece as a short tag naming what the walk handed over."""

    def __init__(self, separator: str | None = None) -> None:
        self._separator = separator

    def separator(self) -> str | None:
        return self._separator

    def progress(self, progress: Progress) -> str:
        return f"progress {progress.progress}"

    def blocks_left(self, omission: Omission) -> str:
        return f"left {omission.count}"

    def note(self, text: str) -> str:
        return f"note {text}"

    def no_content(self) -> str:
        return "no content"

    def text(self, window: Window | None) -> str:
        return f"text {window.text!r}" if window else "empty text"

    def media(self, block: ImageBlock | AudioBlock) -> str:
        return f"media {block.mime_type}"

    def resource_link(self, block: ResourceLinkBlock) -> str:
        return f"link {block.uri}"

    def resource(self, label: str, window: Window | None) -> str:
        return f"resource {label} {'text' if window else 'blob'}"

    def noted_json(self, note: str, value: object, limits: Limits) -> str:
        return f"noted {note} {value}"

    def ui(self, notice: str) -> str:
        return f"ui {notice}"


def structured(body: KindBody) -> str:
    return f"structured {body.kind}"


VIEWS: Registry[str] = Registry({"json": structured, "table": structured})


def props(value: dict[str, Any]) -> BlocksProps:
    checked = validate_props("blocks", value)
    assert isinstance(checked, BlocksProps)
    return checked


def test_every_block_is_handed_over_in_order() -> None:
    parts = Tags().walk(props(BLOCKS), DEFAULT_LIMITS, VIEWS)
    assert parts[0] == "progress 3.0"
    assert parts[1] == "text 'Here is the image:'"
    assert parts[2:4] == ["media image/png", "media audio/wav"]
    assert parts[4:6] == ["link https://example.com/r", "link file:///etc/hosts"]
    assert parts[6].startswith("resource ") and parts[6].endswith(" text")
    assert parts[7].startswith("resource ") and parts[7].endswith(" blob")
    assert parts[8] == "noted unreadable block of type 'hologram': unknown type {'x': 1}"
    assert parts[9].startswith("ui interactive UI ui://widget/1")
    assert parts[10:12] == ["structured table", "structured json"]
    assert parts[12].startswith("noted structured content is not a valid 'table': ")
    assert parts[13] == "note 1 block for the assistant only"
    assert len(parts) == 14


def test_the_separator_stands_only_between_blocks() -> None:
    value = {"blocks": [{"type": "text", "text": "a"}, {"type": "text", "text": ""}]}
    parts = Tags(separator="--").walk(props(value), DEFAULT_LIMITS, VIEWS)
    assert parts == ["text 'a'", "--", "empty text"]


def test_blocks_past_the_limit_are_counted_not_shown() -> None:
    value = {"blocks": [{"type": "text", "text": str(n)} for n in range(5)]}
    parts = Tags().walk(props(value), Limits(max_json_items=2), VIEWS)
    assert parts == ["text '0'", "text '1'", "left 3"]


def test_nothing_at_all_says_so() -> None:
    assert Tags().walk(props({"blocks": []}), DEFAULT_LIMITS, VIEWS) == ["no content"]


def test_notes_alone_are_content() -> None:
    parts = Tags().walk(props({"blocks": [], "notes": ["only a note"]}), DEFAULT_LIMITS, VIEWS)
    assert parts == ["note only a note"]


def test_a_note_is_cleaned_and_bounded() -> None:
    secret = "ghp_" + "a" * 36
    note = f"token {secret} " + "x" * 2000
    (part,) = Tags().walk(props({"blocks": [], "notes": [note]}), DEFAULT_LIMITS, VIEWS)
    assert secret not in part
    assert len(part) < 700
    assert part.endswith("more characters")


def test_structured_content_keeps_its_truncation() -> None:
    seen: list[KindBody] = []

    def keep(body: KindBody) -> str:
        seen.append(body)
        return structured(body)

    value = {
        "blocks": [
            {
                "type": "structured",
                "view": "json",
                "props": {"value": [1]},
                "truncated": {"shown": 1, "total": 9, "unit": "items"},
            }
        ]
    }
    assert Tags().walk(props(value), DEFAULT_LIMITS, Registry({"json": keep})) == [
        "structured json"
    ]
    assert seen[0].truncated is not None and seen[0].truncated.total == 9
    assert seen[0].text == ""


def test_structured_content_is_rendered_by_the_registry_given() -> None:
    value = {"blocks": [{"type": "structured", "view": "json", "props": {"value": [1]}}]}
    mine: Registry[str] = Registry({"json": lambda body: "mine"})
    assert Tags().walk(props(value), DEFAULT_LIMITS, mine) == ["mine"]


def test_a_view_the_registry_lacks_or_breaks_shows_its_json_noted() -> None:
    value = {
        "blocks": [
            {"type": "structured", "view": "table", "props": {"columns": ["a"], "rows": [[1]]}},
            {"type": "structured", "view": "json", "props": {"value": [1]}},
        ]
    }

    def boom(body: KindBody) -> str:
        raise RuntimeError("bug")

    parts = Tags().walk(props(value), DEFAULT_LIMITS, Registry({"json": boom}))
    assert parts == [
        "noted no renderer for kind 'table'; showing its JSON {'columns': ['a'], 'rows': [[1]]}",
        "noted the renderer for kind 'json' failed (RuntimeError); showing its JSON {'value': [1]}",
    ]
