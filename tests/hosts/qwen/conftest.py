"""Fixtures for the Qwen Code host: a fresh run of the REAL Qwen Code CLI against the
scripted OpenAI-compatible model (tests/hosts/pi/model_server.py)."""

from __future__ import annotations

import pytest

from .qwen_cli import QWEN_BIN, QwenRun, run_qwen


@pytest.fixture(scope="session")
def real_run(tmp_path_factory: pytest.TempPathFactory) -> QwenRun:
    """One scripted session through ``qwen --yolo`` (shared: it takes a few seconds)."""
    if not QWEN_BIN.exists():
        pytest.fail(f"Qwen Code is not installed under {QWEN_BIN}: run scripts/bootstrap")
    run = run_qwen(tmp_path_factory.mktemp("qwen"))
    assert run.returncode == 0, run.stderr[-4000:]
    return run
