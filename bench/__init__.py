"""gamehall's benchmarks: each ``bench_*.py`` module returns figures; ``python -m bench`` runs all.

A module defines ``run(quick: bool) -> dict[str, float]`` and may define ``TARGETS``
(``{name: (">=" | "<=", number)}``). A figure measured over several rounds is a :class:`Figure`:
a float (its median, so older callers keep working) that also carries every round's value, from
which the runner prints min / median / max. Ratios are measured inside one run, round by round.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable, Mapping
from typing import Any

Target = tuple[str, float]


class Figure(float):
    """A median that remembers the rounds it came from (and, optionally, its target)."""

    samples: tuple[float, ...]
    target: Target | None

    def __new__(cls, samples: Iterable[float], target: Target | None = None) -> Figure:
        values = tuple(float(s) for s in samples)
        if not values:
            raise ValueError("a figure needs at least one round")
        figure = super().__new__(cls, statistics.median(values))
        figure.samples = values
        figure.target = target
        return figure

    @property
    def low(self) -> float:
        """Return the lowest round."""
        return min(self.samples)

    @property
    def high(self) -> float:
        """Return the highest round."""
        return max(self.samples)

    @property
    def spread(self) -> float:
        """Return (max - min) / median: how much the rounds disagree."""
        return (self.high - self.low) / float(self) if float(self) else 0.0


def rates(fn: Callable[[], tuple[int, float]], repeats: int = 3) -> Figure:
    """Return ``count / seconds`` of every repeat of ``fn`` as one figure."""
    values = []
    for _ in range(repeats):
        count, seconds = fn()
        values.append(count / seconds)
    return Figure(values)


def interleaved(parts: Mapping[str, Callable[[], float]], rounds: int) -> dict[str, list[float]]:
    """Run every part once per round, in turn, and return each part's values by round.

    Interleaving makes a ratio of two parts compare them under the same load: a burst of
    other work on the machine slows both sides of the same round.
    """
    out: dict[str, list[float]] = {name: [] for name in parts}
    for _ in range(rounds):
        for name, fn in parts.items():
            out[name].append(fn())
    return out


def ratio(top: list[float], bottom: list[float], target: Target | None = None) -> Figure:
    """Return the round-by-round ratio of two interleaved series."""
    return Figure([a / b for a, b in zip(top, bottom, strict=True)], target)


def holds(value: float, target: Target) -> bool:
    """Tell whether a value meets its target."""
    op, bound = target
    return value <= bound if op == "<=" else value >= bound


def describe(name: str, value: Any, target: Target | None) -> str:
    """Return one printed line: the figure, its spread and its target."""
    target = target or getattr(value, "target", None)
    text = f"{name:<44} {float(value):>14,.3f}"
    if isinstance(value, Figure) and len(value.samples) > 1:
        text += f"  [{value.low:,.3f} .. {value.high:,.3f}; {len(value.samples)} rounds]"
    if target is not None:
        op, bound = target
        verdict = "holds" if holds(float(value), target) else "NOT held"
        text += f"  target {op} {bound:g}: {verdict}"
    return text
