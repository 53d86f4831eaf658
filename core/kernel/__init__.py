"""The kernel: what runs matches, and nothing else.

``actor`` (one actor per active match: decides commands, commits their events, answers),
``supervisor`` (starts, rests and drops actors), ``journal`` (group commit to the store),
``hub`` (live streams of committed records), ``activation`` (a match rebuilt from the
store: snapshot and tail), ``context`` (the small object each actor is
given: its store port, journal, publisher, clock, metrics and quarantine callback, and the
projections and subscribers the features declare) and ``system`` (the ``Kernel``, its face:
activation once per match, quarantine, asking an actor, a match's records read and followed). The features — lobby, take-backs, bots,
turn clocks, nodes — and the :class:`~gamehall.core.hall.Hall` facade sit on top of it; it
imports none of them (checked by the import contracts in ``.importlinter``).
"""
