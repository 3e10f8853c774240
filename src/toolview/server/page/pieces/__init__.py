"""A thread's markup in pieces, one per entry: rendered in worker processes, cached by version."""
