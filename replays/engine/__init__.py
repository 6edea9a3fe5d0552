"""The old home of the rules engine, kept so `python -m replays.engine` still runs.

The engine is the top-level package `speedrules`; import it from there.
"""
