"""One call's data on demand: its whole output from the log, its observations, a stored file."""
