"""Turn a log into a pytest file that plays its commands with public API only."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import msgspec

from ..events import Recorded
from ..registry import Ruleset
from ..replay import started_of
from .common import first_difference, game_records, live_steps, steps_of
from .shrink import Condition

TEMPLATE = '''"""{title}

Written by ``gamehall to-test`` from {source}. It uses only gamehall's public API.
"""

from __future__ import annotations

import importlib

import msgspec

from gamehall.core import Registry, Table, default_registry

PLUGINS: list[str] = {plugins}
STARTED = {started}
COMMANDS = {commands}
EXPECTED = {expected}
UNTIL = {until}


def registry() -> Registry:
    if not PLUGINS:
        return default_registry()
    return Registry([importlib.import_module(name) for name in PLUGINS])


def test_{name}() -> None:
    codec = registry().codec
    started = codec.event_from_builtins(STARTED)
    ruleset = registry().ruleset_of(started)
    table = Table(ruleset, started, stream="{name}")
    for number, (seat, raw) in enumerate(COMMANDS, start=1):
        command = codec.command_from_builtins(raw)
        events = table.send(seat, command)
        if UNTIL == "invariant-fails":
            for invariant in ruleset.invariants.values():
                problem = invariant.check(table.state)
                assert problem is None, (
                    f"command {{number}} (seat {{seat + 1}}): invariant {{invariant.name}} "
                    f"fails: {{problem}}"
                )
            continue
        got = msgspec.to_builtins(list(events))
        want = EXPECTED[number - 1]
        for index, (a, b) in enumerate(zip(want, got, strict=False)):
            assert a == b, (
                f"command {{number}} (seat {{seat + 1}}), event {{index + 1}} differs: "
                f"recorded {{a}}, now {{b}}"
            )
        assert len(want) == len(got), (
            f"command {{number}} (seat {{seat + 1}}) gave {{len(got)}} events, "
            f"recorded {{len(want)}}"
        )
'''


def to_test(
    ruleset: Ruleset,
    records: Sequence[Recorded],
    source: str,
    name: str,
    until: Condition | None = None,
    plugins: Sequence[str] = (),
) -> str:
    """Return the text of a pytest file for a full log, formatted by ruff when it is there.

    Without ``until`` the test asserts the recorded events of every command: it passes on
    the code the log came from and names the first difference on code that decides
    otherwise. With ``until invariant-fails`` it asserts every invariant after every
    command: a regression test that fails while the bug is there.
    """
    from ..errors import GamehallError

    problem = first_difference(ruleset, records)
    if problem is not None:
        raise GamehallError(f"the log does not verify: {problem}")
    if until is not None and until.kind != "invariant-fails":
        raise GamehallError("to-test --until takes invariant-fails (the others need code)")
    started = started_of(records)
    steps = live_steps(steps_of(ruleset, game_records(ruleset, records)))
    enc = msgspec.to_builtins
    title = (
        f"The {len(steps)} commands of a {ruleset.name} match keep every invariant."
        if until is not None
        else f"The {len(steps)} commands of a {ruleset.name} match give the recorded events."
    )
    text = TEMPLATE.format(
        title=title,
        source=Path(source).name,
        plugins=repr(list(plugins)),
        started=repr(enc(started)),
        commands=repr([(s.seat, enc(s.command)) for s in steps]),
        expected=repr([enc(list(s.events)) for s in steps]),
        until=repr(str(until) if until is not None else None),
        name=name,
    )
    return _formatted(text)


def _formatted(text: str) -> str:
    try:
        done = subprocess.run(
            [sys.executable, "-m", "ruff", "format", "-"],
            input=text, capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return text
    return done.stdout if done.returncode == 0 else text
