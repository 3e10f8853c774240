"""Property-based fuzzing of every boundary that takes outside data (issue 6)."""
