"""A ruleset's hook relay answers every call as pluggy's own hook callers would."""

from __future__ import annotations

import copy
import warnings
from collections.abc import Generator
from typing import Any

import pluggy
import pytest
from gamehall.core.hookcalls import Hooks

spec = pluggy.HookspecMarker("relay")
impl = pluggy.HookimplMarker("relay")


class Specs:
    @spec(firstresult=True)
    def first(self, seat: int, line: tuple[int, ...]) -> int:  # type: ignore[empty-body]
        """Return one answer."""

    @spec
    def every(self, seat: int, line: tuple[int, ...]) -> list[int]:  # type: ignore[empty-body]
        """Return every answer."""


class Default:
    @impl(trylast=True)
    def first(self, seat: int, line: tuple[int, ...]) -> int:
        return seat

    @impl(trylast=True)
    def every(self, seat: int, line: tuple[int, ...]) -> int:
        return seat


class Override:
    """Takes only some of the arguments, as pluggy allows."""

    @impl
    def first(self, line: tuple[int, ...]) -> int | None:
        return line[0] if line else None

    @impl
    def every(self, line: tuple[int, ...]) -> int:
        return len(line)


class Wrapper:
    @impl(wrapper=True)
    def first(self, seat: int) -> Generator[None, int, int]:
        result = yield
        return result * 10


def manager(*plugins: object) -> pluggy.PluginManager:
    pm = pluggy.PluginManager("relay")
    pm.add_hookspecs(Specs)
    for plugin in plugins:
        pm.register(plugin)
    return pm


CALLS: list[dict[str, Any]] = [
    {"seat": 1, "line": (4, 5, 6)},
    {"seat": 0, "line": ()},
    {"line": (7,), "seat": 2},  # another order
]


@pytest.mark.parametrize("plugins", [(Default(),), (Default(), Override()), (Override(),), ()])
@pytest.mark.parametrize("kwargs", CALLS)
def test_same_answers_as_pluggy(plugins: tuple[object, ...], kwargs: dict[str, Any]) -> None:
    pm = manager(*plugins)
    hooks = Hooks(pm)
    for _ in range(2):  # the second call goes through the plan made by the first
        assert hooks.first(**kwargs) == pm.hook.first(**kwargs)
        assert hooks.every(**kwargs) == pm.hook.every(**kwargs)


def test_later_registrations_are_called() -> None:
    pm = manager(Default())
    hooks = Hooks(pm)
    assert hooks.first(seat=1, line=(5,)) == 1
    override = Override()
    pm.register(override)
    assert hooks.first(seat=1, line=(5,)) == 5
    pm.unregister(override)
    assert hooks.first(seat=1, line=(5,)) == 1


def test_wrappers_take_part() -> None:
    pm = manager(Default(), Wrapper())
    assert Hooks(pm).first(seat=3, line=()) == 30


def test_monitoring_sees_every_call() -> None:
    pm = manager(Default())
    hooks = Hooks(pm)
    hooks.first(seat=1, line=())
    seen: list[str] = []
    undo = pm.add_hookcall_monitoring(lambda name, *_: seen.append(name), lambda *_: None)
    hooks.first(seat=1, line=())
    hooks.every(seat=1, line=())
    undo()
    hooks.first(seat=1, line=())
    assert seen == ["first", "every"]


def test_missing_argument_is_refused_as_by_pluggy() -> None:
    pm = manager(Default())
    hooks = Hooks(pm)
    hooks.first(seat=1, line=())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(pluggy.HookCallError):
            hooks.first(line=())


def test_an_implementation_error_is_raised_once() -> None:
    calls = []

    class Raises:
        @impl
        def first(self, seat: int) -> int:
            calls.append(seat)
            raise KeyError("seat")

    hooks = Hooks(manager(Raises()))
    with pytest.raises(KeyError):
        hooks.first(seat=1, line=())
    assert calls == [1]


def test_other_attributes_are_pluggys() -> None:
    pm = manager(Default())
    hooks = Hooks(pm)
    assert hooks.first.get_hookimpls() == pm.hook.first.get_hookimpls()
    assert hooks.first.name == "first"
    with pytest.raises(AttributeError):
        hooks.no_such_hook  # noqa: B018


def test_copies_answer_as_the_original() -> None:
    pm = manager(Default())
    hooks = Hooks(pm)
    hooks.first(seat=1, line=())
    for copied in (copy.copy(hooks), copy.copy(hooks.first)):
        assert copied is not None
    assert copy.copy(hooks).first(seat=2, line=()) == 2
