"""Fixtures for the Qwen Code host: a fresh run of the REAL Qwen Code CLI against the
scripted OpenAI-compatible model (tests/hosts/pi/model_server.py)."""

from __future__ import annotations

import pytest

from scripted_agents.cli_run import checked_run

from .qwen_cli import QWEN_BIN, QwenRun, run_qwen


@pytest.fixture(scope="session")
def real_run(tmp_path_factory: pytest.TempPathFactory) -> QwenRun:
    """One scripted session through ``qwen --yolo`` (shared: it takes a few seconds)."""
    return checked_run(QWEN_BIN, "Qwen Code", run_qwen, tmp_path_factory)
