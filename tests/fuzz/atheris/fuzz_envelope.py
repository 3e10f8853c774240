"""Coverage-guided fuzzing of ``parse_envelope`` (atheris), run by hand.

    python tests/fuzz/atheris/fuzz_envelope.py -atheris_runs=100000

Property: ``parse_envelope`` returns an ``Envelope`` or ``None`` for any bytes
and never raises. A crash writes the input to ``crash-*``: shrink it, then add
it under tests/fuzz/regressions/parse_envelope/.
"""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports():
    from toolview.contract import Envelope, parse_envelope


def one_input(data: bytes) -> None:
    envelope = parse_envelope(data)
    assert envelope is None or isinstance(envelope, Envelope)
    text = atheris.FuzzedDataProvider(data).ConsumeUnicodeNoSurrogates(len(data))
    envelope = parse_envelope(text)
    assert envelope is None or isinstance(envelope, Envelope)


if __name__ == "__main__":
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()
