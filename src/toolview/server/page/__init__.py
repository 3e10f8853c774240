"""The page: the index, a thread drawn by the html surface, its window of calls, and search."""
