"""An OTLP body's type and encoding, and its inflation within the limit."""

from __future__ import annotations

import gzip
import subprocess
import sys
import zlib

import pytest
from starlette.datastructures import Headers

from toolview.server.ingest.batch import BodyTooLarge
from toolview.server.ingest.otlp_body import (
    BadTraces,
    UnsupportedBody,
    body_form,
    content_encoding,
    inflate,
)


def test_the_two_encodings_of_otlp_http() -> None:
    assert (
        body_form(Headers({"content-type": "application/x-protobuf"})) == "application/x-protobuf"
    )
    assert (
        body_form(Headers({"content-type": "Application/JSON; charset=utf-8"}))
        == "application/json"
    )
    with pytest.raises(UnsupportedBody, match="not 'application/grpc'"):
        body_form(Headers({"content-type": "application/grpc"}))


def test_content_encodings() -> None:
    assert content_encoding(Headers({})) == "identity"
    assert content_encoding(Headers({"content-encoding": "GZIP"})) == "gzip"
    with pytest.raises(UnsupportedBody):
        content_encoding(Headers({"content-encoding": "gzip, gzip"}))


def test_gzip_and_deflate_inflate_up_to_the_limit_and_no_further() -> None:
    body = b"x" * 1000
    assert inflate(gzip.compress(body), "gzip", 1000) == body
    assert inflate(zlib.compress(body), "deflate", 1000) == body
    with pytest.raises(BodyTooLarge):
        inflate(gzip.compress(body), "gzip", 999)
    with pytest.raises(BadTraces, match="truncated"):
        inflate(gzip.compress(body)[:-12], "gzip", 1000)
    with pytest.raises(BadTraces, match="not valid deflate"):
        inflate(b"plain", "deflate", 1000)


def test_the_server_imports_protobuf_only_on_the_first_export() -> None:
    """Start-up stays as fast as before: ``opentelemetry-proto`` costs ~0.1 s to import."""
    code = (
        "import sys, toolview.server.app, toolview.hosts.otel\n"
        "assert 'google.protobuf' not in sys.modules, 'protobuf imported at start-up'\n"
        "import toolview.server.ingest.otlp_decode\n"
        "assert 'google.protobuf' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
