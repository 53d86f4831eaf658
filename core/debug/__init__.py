"""Debugging a match like a program: why an event happened, a failing log shrunk to its
smallest cause, what-if replays, a log turned into a test, and what each event changed.

Every tool here works on a full log (with its seed) and re-decides commands with the
generator the match had, so nothing is recorded while a match plays: provenance, shrinking
and what-if replays are computed on demand, off the durable path.
"""
