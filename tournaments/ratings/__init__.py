"""Player ratings: pure functions, no Django."""
