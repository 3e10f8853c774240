"""Defined outcomes for the classic bad inputs, at every boundary (issue 6)."""
