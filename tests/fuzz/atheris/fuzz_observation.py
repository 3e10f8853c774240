"""Coverage-guided fuzzing of ``decode_observation`` (atheris), run by hand.

    python tests/fuzz/atheris/fuzz_observation.py -atheris_runs=100000

Property: an observation that re-encodes to itself, or ``ObservationError``.
Invalid UTF-8 inside a JSON string currently raises ``UnicodeDecodeError``
(reported; see KNOWN_BUGS in tests/fuzz/properties.py): pass
``TOOLVIEW_FUZZ_STRICT=1`` to stop on it, otherwise it is skipped.
"""

from __future__ import annotations

import os
import sys

import atheris

with atheris.instrument_imports():
    from toolview.contract import ObservationError, decode_observation, encode_observation

STRICT = os.environ.get("TOOLVIEW_FUZZ_STRICT") == "1"


def one_input(data: bytes) -> None:
    try:
        observation = decode_observation(data)
    except ObservationError:
        return
    except UnicodeError:
        if STRICT:
            raise
        return
    assert decode_observation(encode_observation(observation)) == observation


if __name__ == "__main__":
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()
