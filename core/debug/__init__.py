"""Debugging a match like a program: why an event happened, a failing log shrunk to its
smallest cause, what-if replays, a log turned into a test, and what each event changed.

Every tool here works on a full log (with its seed) and re-decides commands with the
generator the match had, so nothing is recorded while a match plays: provenance, shrinking
and what-if replays are computed on demand, off the durable path.

* :func:`.provenance.why` and :func:`.provenance.trace_command`: an event's command, hooks,
  emitting plugin and rule;
* :func:`.shrink.shrink`: a shortest legal command sequence that still shows a condition;
* :func:`.whatif.whatif`: the rest of a match re-decided with one command dropped or replaced;
* :func:`.totest.to_test`: a pytest file that replays a log;
* :func:`.statediff.event_changes`: what one event changed in one seat's view.
"""
