"""Models for players, matches and games."""
