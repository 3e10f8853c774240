"""``toolview.wire`` names its public API without importing it all.

Every ``toolview.wire.*`` import runs the package first; a producer that only
publishes (``toolview.remote``) must not pay for redis-py and the AG-UI SDK
there. Checked in a fresh interpreter, by what is imported, not by a timing.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

import toolview.wire

PROBE = """
import sys
import toolview.remote, toolview.wire.batch_limit, toolview.wire.follow
print(",".join(sorted(m for m in sys.modules if m.split(".")[0] in ("redis", "ag_ui"))))
"""


def test_the_remote_side_imports_neither_redis_nor_ag_ui() -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == ""


@pytest.mark.parametrize("name", toolview.wire.__all__)
def test_every_public_name_resolves_to_its_module_s_object(name: str) -> None:
    value = getattr(toolview.wire, name)
    homes = [module for key, module in sys.modules.items() if key.startswith("toolview.wire.")]
    assert any(vars(module).get(name) is value for module in homes)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no_such_name"):
        toolview.wire.no_such_name  # noqa: B018
