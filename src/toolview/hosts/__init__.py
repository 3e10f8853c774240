"""toolview.hosts."""
