"""``toolview serve``: loopback by default, refuses to expose threads without a token."""

from __future__ import annotations

import sys
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "wire"))

from toolview_servers import REPO, ToolviewServer

from toolview.cli import main
from toolview.cli.serve_cmd import is_loopback


def test_loopback_addresses() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.4")


def test_a_public_address_without_a_token_is_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TOOLVIEW_TOKEN", raising=False)
    assert main(["serve", "--host", "0.0.0.0", "--port", "0"]) == 2
    assert "refusing to serve on 0.0.0.0 without a token" in capsys.readouterr().err


def test_a_bad_load_file_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"kind": "message", "role": "user", "text": "hi"}\n{"kind": "nope"}\n')
    assert main(["serve", "--db", str(tmp_path / "x.db"), "--load", str(bad)]) == 2
    assert "line 2" in capsys.readouterr().err


def test_serve_loads_the_example_thread_once(tmp_path: Path) -> None:
    args = [
        "--port",
        "0",
        "--db",
        str(tmp_path / "x.db"),
        "--load",
        str(REPO / "examples/thread.jsonl"),
    ]
    for _ in range(2):  # a restart does not load the file twice
        server = ToolviewServer.start(args)
        try:
            threads = httpx.get(f"{server.url}/api/threads").json()["threads"]
        finally:
            server.kill()
        lines = (REPO / "examples/thread.jsonl").read_text().splitlines()
        assert threads == [
            {"id": "thread", "created": threads[0]["created"], "lastSeq": len(lines)}
        ]


def test_a_loaded_file_with_an_odd_name_gets_a_reachable_thread_id() -> None:
    from pathlib import Path

    from toolview.cli.serve_cmd import thread_id_for

    assert thread_id_for(Path("examples/thread.jsonl")) == "thread"
    assert thread_id_for(Path("/tmp/my run (1).jsonl")) == "my-run--1-"
    assert thread_id_for(Path("/tmp/" + "x" * 100 + ".jsonl")) == "x" * 64
    assert thread_id_for(Path("/tmp/.jsonl")) == ".jsonl"
