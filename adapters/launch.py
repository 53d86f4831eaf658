"""The ``gamehall`` command's first step: the memory allocator a server runs on.

A server lives long and meets bursts: thousands of matches active at once, then at rest.
Python's own small-object allocator keeps each 1 MiB arena of its heap as long as a single
object in it lives, and the few objects made during a burst that outlive it (a cached
statement, the loop's pending handles) are spread over the burst's arenas: after 20,000
matches created and left, a process on it stays about a quarter above where it started. On
the C library's allocator (``PYTHONMALLOC=malloc``) freed memory goes back to the system once
matches rest (``malloc_trim``): the same soak returns to about 6% above its start. It costs
some speed: about a tenth of a durable command's CPU time in the core (docs/deploy.md gives
the figures).

So the servers (``gamehall serve`` and ``serve-stdio``) run on the C library's allocator
unless told otherwise
(``--allocator python`` or ``GAMEHALL_ALLOCATOR=python``); any other command, and an
application embedding the core, keeps the interpreter's choice. The interpreter reads
``PYTHONMALLOC`` only as it starts, so the command starts itself again with it set (the same
process, arguments and interpreter options) before anything else is loaded. A
``PYTHONMALLOC`` already set is the operator's choice and is left as it is.

This module imports nothing of gamehall, so the restart costs an interpreter's start-up only.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

ALLOCATOR_ENV = "GAMEHALL_ALLOCATOR"
ALLOCATORS = ("c", "python")
SERVER_ALLOCATOR = "c"
SERVERS = ("serve", "serve-stdio")  # the commands that run for long: the C allocator's
_GLOBAL_WITH_VALUE = ("--log-level",)  # the command line's own options that take a value


def command_of(argv: Sequence[str]) -> tuple[str | None, list[str]]:
    """Return the subcommand ``argv`` names (``None``: none) and the arguments after it."""
    args = list(argv)
    while args:
        first = args.pop(0)
        if first in _GLOBAL_WITH_VALUE:
            args = args[1:]
        elif not first.startswith("-"):
            return first, args
    return None, []


def allocator_asked(rest: Sequence[str], env: dict[str, str] | os._Environ[str]) -> str:
    """Return the allocator ``serve`` is asked for: ``--allocator``, else the variable,
    else the server's default. A value that is not one of :data:`ALLOCATORS` is returned as
    it is, for the command's own parser to refuse in words."""
    for i, arg in enumerate(rest):
        if arg == "--":
            break
        if arg == "--allocator" and i + 1 < len(rest):
            return rest[i + 1]
        if arg.startswith("--allocator="):
            return arg.partition("=")[2]
    return env.get(ALLOCATOR_ENV) or SERVER_ALLOCATOR


def wants_restart(argv: Sequence[str], env: dict[str, str] | os._Environ[str]) -> bool:
    """Tell whether this command must start again on the C library's allocator."""
    if "PYTHONMALLOC" in env:
        return False  # chosen already: by the operator, or by the restart itself
    command, rest = command_of(argv)
    return command in SERVERS and allocator_asked(rest, env) == "c"


def allocator_refusal(flag: str | None, env: dict[str, str] | os._Environ[str]) -> str | None:
    """Say why the allocator a server is asked for by the environment is refused (``None``:
    it is not); ``flag`` is the ``--allocator`` given, which wins and its parser checks."""
    asked = env.get(ALLOCATOR_ENV, "")
    if flag is not None or asked in ("", *ALLOCATORS):
        return None
    return f"{ALLOCATOR_ENV} is {asked!r}: it names the memory allocator, one of " + " or ".join(
        ALLOCATORS
    )


def main() -> int:
    """Run the ``gamehall`` command (restarted first on the allocator a server needs)."""
    if wants_restart(sys.argv[1:], os.environ) and sys.executable:
        os.environ["PYTHONMALLOC"] = "malloc"
        try:
            os.execv(sys.executable, [sys.executable, *sys.orig_argv[1:]])
        except OSError:  # no restart here: serve on the allocator the interpreter has
            del os.environ["PYTHONMALLOC"]
    from gamehall.adapters.cli import main as run

    return run()


if __name__ == "__main__":
    raise SystemExit(main())
