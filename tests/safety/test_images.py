"""Image vetting before a data: URL is built."""

from __future__ import annotations

import base64
import time

import pytest

from toolview.safety import ALLOWED_IMAGE_TYPES, IMAGE_SIZE_CAP, check_image

MAGIC = {
    "image/png": b"\x89PNG\r\n\x1a\n",
    "image/jpeg": b"\xff\xd8\xff\xe0",
    "image/gif": b"GIF89a",
    "image/webp": b"RIFF\x00\x00\x00\x00WEBPVP8 ",
}


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def test_constants() -> None:
    assert frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"}) == ALLOWED_IMAGE_TYPES
    assert IMAGE_SIZE_CAP == 2 * 1024 * 1024


@pytest.mark.parametrize("mime", sorted(MAGIC))
def test_each_allowed_type_passes(mime: str) -> None:
    assert check_image(mime, _b64(MAGIC[mime] + b"\x00" * 40)) is None


def test_gif87a_passes() -> None:
    assert check_image("image/gif", _b64(b"GIF87a" + b"\x00" * 10)) is None


@pytest.mark.parametrize("mime", ["image/svg+xml", "text/html", "image/bmp", "", "image/png;x"])
def test_other_types_are_refused(mime: str) -> None:
    assert check_image(mime, _b64(MAGIC["image/png"])) == f"type {mime} not allowed"


def test_reason_never_echoes_controls() -> None:
    reason = check_image("\x1b]0;x\x07", "")
    assert reason is not None and "\x1b" not in reason


@pytest.mark.parametrize("data", ["!!!!", "iVBORw0KGgo", "iVBO Rw0K", "iVBO\nRw0K", "é===", "===="])
def test_invalid_base64_is_refused(data: str) -> None:
    assert check_image("image/png", data) == "invalid base64"


def test_mislabelled_content_is_refused() -> None:
    assert check_image("image/jpeg", _b64(MAGIC["image/png"] + b"1234")) == (
        "content is not image/jpeg"
    )


def test_empty_image_is_refused() -> None:
    assert check_image("image/png", "") == "empty image"


def test_size_cap_is_checked_before_decoding() -> None:
    cap = 1000
    data = _b64(MAGIC["image/png"] + b"\x00" * 2000)
    assert check_image("image/png", data, cap=cap) == "too large: 2008 bytes"
    huge = "A" * (400 * 1024 * 1024)  # 300 MB decoded: refused without decoding
    start = time.thread_time()
    assert check_image("image/png", huge) == f"too large: {300 * 1024 * 1024} bytes"
    assert time.thread_time() - start < 0.5


def test_exact_cap_is_allowed() -> None:
    data = _b64(MAGIC["image/png"] + b"\x00" * (1002 - 8))
    assert check_image("image/png", data, cap=1002) is None
