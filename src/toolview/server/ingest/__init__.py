"""Ingest: what enters the log — posted batches, OTLP trace exports, watched session files.

It stores; it never follows or draws (``live`` and ``page`` read what it stored).
"""
