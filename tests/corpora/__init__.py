"""Hostile-input corpora shared by every surface's tests.

Plain data modules, importable as ``corpora.<name>`` once ``tests/`` is on
``sys.path`` (the html tests' conftest puts it there), so each surface runs the
same payloads instead of keeping a private list.
"""
