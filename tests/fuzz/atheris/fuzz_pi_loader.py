"""Coverage-guided fuzzing of the pi loader (atheris), run by hand.

    python tests/fuzz/atheris/fuzz_pi_loader.py -atheris_runs=100000

Property: observations, or ``PiFormatError`` naming the line. Known bugs (see
KNOWN_BUGS in tests/fuzz/properties.py) stop the run only with
``TOOLVIEW_FUZZ_STRICT=1``.
"""

from __future__ import annotations

import os
import sys

import atheris

with atheris.instrument_imports():
    from toolview.hosts.pi import PiFormatError, load_observations

STRICT = os.environ.get("TOOLVIEW_FUZZ_STRICT") == "1"


def one_input(data: bytes) -> None:
    try:
        load_observations(data)
    except PiFormatError:
        return
    except (TypeError, ValueError, RecursionError):
        if STRICT:
            raise


if __name__ == "__main__":
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()
