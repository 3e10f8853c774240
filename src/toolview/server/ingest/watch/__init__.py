"""``serve --watch``: session files under folders, read as they grow and ingested into the log."""
