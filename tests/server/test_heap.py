"""Freed memory goes back to the system when the server asks (``server.heap``).

Run in a fresh interpreter: what its heap holds is then only this test's.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

SCRIPT = """
import sys
from toolview.server.heap import give_back

def rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1]) // 1024

held = [("x" * 8000) + str(n) for n in range(8000)]  # 64 MB in strings of 8 KB, as records are
keep = ["y" * 8000 for _ in range(10)]  # allocated after them: the heap's top stays in use
del held
freed = rss()
print(give_back(), freed, rss())
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim")
def test_freed_strings_are_given_back_to_the_system() -> None:
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=True)
    gave, before, after = out.stdout.split()
    assert gave == "True"
    assert int(before) - int(after) >= 40  # MiB: the 64 MB freed no longer resident
