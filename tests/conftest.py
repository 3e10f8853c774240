"""Suite-wide options: ``--long`` runs the long (slow) variants too."""

from __future__ import annotations

import signal

import pytest
from hypothesis import HealthCheck, settings

# The machines are small and shared: property tests are judged on what they
# find, never on how fast inputs are generated.
settings.register_profile(
    "toolview",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("toolview")

# Ctrl-C tests send SIGINT to the commands they start. A suite started in the
# background of a shell without job control inherits SIGINT *ignored*, and an
# ignored signal stays ignored across exec: every child would shrug off its
# Ctrl-C and the test would wait out its limit. A handler (not an ignore) is
# reset to the default on exec, so the commands get the Ctrl-C a terminal gives.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--long", action="store_true", default=False, help="also run the long variants"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--long"):
        return
    skip_slow = pytest.mark.skip(reason="long variant: run with --long")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip_slow)
