"""Fixtures: a real redis-server, and an observation log of each backend."""

from __future__ import annotations

from log_fixtures import LogOpener, open_log_fixture, redis_server

__all__ = ["LogOpener", "open_log", "redis_server"]

open_log = open_log_fixture("test")
