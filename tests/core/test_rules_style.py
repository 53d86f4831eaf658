"""The one style for rules: ``@decides`` / ``@evolves`` dispatch, the emitter, the presentation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gamehall.plugins.tictactoe as tictactoe_plugin
import pytest
from gamehall.core import (
    Command,
    Context,
    Emitter,
    Event,
    ExpansionSpec,
    IllegalCommand,
    Presentation,
    Registry,
    Rules,
    Table,
    decides,
    evolves,
    hookimpl,
    namespaced,
)
from gamehall.plugins.tictactoe.commands import PlaceMark
from gamehall.plugins.tictactoe.events import MarkPlaced


class Step(Command, frozen=True, tag=namespaced("style-test")):
    pass


class Leap(Step, frozen=True, tag=namespaced("style-test")):
    pass


class Rest(Command, frozen=True, tag=namespaced("style-test")):
    pass


class Moved(Event, frozen=True, tag=namespaced("style-test")):
    by: int


class Shouted(Moved, frozen=True, tag=namespaced("style-test")):
    pass


class Foreign(Event, frozen=True, tag=namespaced("style-test")):
    pass


class Walk(Rules[dict[str, Any]]):
    """A phase is a key of the state; steps count up."""

    def phase(self, state: dict[str, Any]) -> Any:
        return state.get("phase")

    @decides(Step)
    def step(self, state: Any, command: Step, ctx: Context) -> Sequence[Event]:
        return [Moved(1)]

    @decides(Step, phase="run")
    def run(self, state: Any, command: Step, ctx: Context) -> Sequence[Event]:
        return [Moved(2)]

    @decides(Command, phase="run")
    def refuse_while_running(self, state: Any, command: Command, ctx: Context) -> Sequence[Event]:
        raise IllegalCommand("you are running: step or stop", "WALK-1")

    @evolves(Moved, rule="WALK-2")
    def moved(self, state: Any, event: Moved) -> Any:
        return {**state, "at": state.get("at", 0) + event.by}


CTX = Context(0, 1, 0)


def test_decide_calls_the_method_of_the_commands_type_and_phase() -> None:
    walk = Walk(None)
    assert walk.decide({}, Step(), CTX) == [Moved(1)]
    assert walk.decide({"phase": "run"}, Step(), CTX) == [Moved(2)]
    # a subclass is decided by its base's method, the state's phase first
    assert walk.decide({}, Leap(), CTX) == [Moved(1)]
    assert walk.decide({"phase": "run"}, Leap(), CTX) == [Moved(2)]
    with pytest.raises(IllegalCommand, match="you are running") as caught:
        walk.decide({"phase": "run"}, Rest(), CTX)
    assert caught.value.rule == "WALK-1"


def test_a_command_no_method_takes_is_refused_in_words() -> None:
    with pytest.raises(IllegalCommand, match=r"^rest is not a move of this game now$"):
        Walk(None).decide({}, Rest(), CTX)


def test_evolve_applies_by_type_and_leaves_an_unknown_event_to_evolve_other() -> None:
    walk = Walk(None)
    assert walk.evolve({}, Moved(3)) == {"at": 3}
    assert walk.evolve({"at": 1}, Shouted(2)) == {"at": 3}  # by its base's method
    state = {"at": 5}
    assert walk.evolve(state, Foreign()) is state
    assert Walk.event_rules == {Moved: "WALK-2"}


def test_reveals_answers_from_the_named_revealing_events() -> None:
    assert Walk(None).reveals(Moved(1))  # names none: every event reveals

    class Careful(Walk):
        revealing = (Shouted,)

    careful = Careful(None)
    assert careful.reveals(Shouted(1))
    assert not careful.reveals(Moved(1))
    assert careful.reveals(Foreign())  # none of its methods applies it: an expansion's


class Drew(Event, frozen=True, tag=namespaced("style-test")):
    seat: int
    card: str | None = None
    order: tuple[str, ...] | None = None


def test_redact_blanks_the_secret_fields_and_the_private_fields_of_other_seats() -> None:
    drew = Drew(1, "ace", ("king",))
    assert Walk(None).redact(drew, 0) is drew  # names none: every seat sees everything

    class Hiding(Walk):
        secret_fields = {Drew: ("order",)}
        private_fields = {Drew: ("card",)}

    hiding = Hiding(None)
    assert hiding.redact(drew, 1) == Drew(1, "ace", None)
    assert hiding.redact(drew, 0) == Drew(1, None, None)
    assert hiding.redact(drew, None) == Drew(1, None, None)
    assert hiding.redact(Moved(2), 0) == Moved(2)


def test_two_methods_for_one_command_or_event_are_refused_when_the_class_is_made() -> None:
    with pytest.raises(TypeError, match="both decide Step in phase 'run'"):

        class Twice(Walk):
            @decides(Step, phase="run")
            def first(self, state: Any, command: Step, ctx: Context) -> Sequence[Event]:
                return []

            @decides(Step, phase="run")
            def second(self, state: Any, command: Step, ctx: Context) -> Sequence[Event]:
                return []

    with pytest.raises(TypeError, match="both apply Moved"):

        class Again(Walk):
            @evolves(Moved)
            def one(self, state: Any, event: Moved) -> Any:
                return state

            @evolves(Moved)
            def other(self, state: Any, event: Moved) -> Any:
                return state


def test_a_subclass_may_replace_a_method_of_its_base() -> None:
    class Faster(Walk):
        @decides(Step)
        def stride(self, state: Any, command: Step, ctx: Context) -> Sequence[Event]:
            return [Moved(5)]

    assert Faster(None).decide({}, Step(), CTX) == [Moved(5)]
    assert Walk(None).decide({}, Step(), CTX) == [Moved(1)]


def test_the_emitter_gives_the_commands_seat_generator_and_rules() -> None:
    emitter = Emitter(Walk(None), {}, Context(1, 7, 42))
    emitter.emit(Moved(1), rule="WALK-2")
    emitter.emit(Moved(2))
    assert emitter.state == {"at": 3} and emitter.rules_of == ["WALK-2", None]
    assert emitter.seat == 1 and emitter.rng.random() == Context(1, 7, 42).rng.random()
    with pytest.raises(RuntimeError, match="without the command's context"):
        _ = Emitter(Walk(None), {}).rng


class LoudPresentation(Presentation):
    """An expansion's words: its own seat names, the rest handed down to the game's."""

    def seat_names(self, view: Any) -> list[str] | None:
        base = super().seat_names(view) or []
        return [f"{name}!" for name in base]


LOUD = ExpansionSpec(
    id="loud", name="Loud", version="1.0.0", game="tictactoe", presentation=LoudPresentation
)


class LoudPlugin:
    @hookimpl
    def gamehall_expansions(self) -> list[ExpansionSpec]:
        return [LOUD]


class OwnRenderer:
    """A plugin that still implements a words hook itself."""

    @hookimpl
    def gamehall_expansions(self) -> list[ExpansionSpec]:
        return [ExpansionSpec(id="own", name="Own", version="1.0.0", game="tictactoe")]

    @hookimpl
    def gamehall_render_text(self, view: Any, seat: int | None) -> str | None:
        return "drawn by the plugin"


def test_the_games_presentation_answers_the_hooks_and_an_expansions_wraps_it() -> None:
    registry = Registry([tictactoe_plugin, LoudPlugin(), OwnRenderer()], entry_points=False)
    table = Table.new("tictactoe", registry=registry)
    view = table.view(None)
    plain = registry.ruleset("tictactoe")
    assert plain.seat_names(view, 2) == ["X", "O"]
    assert plain.describe(PlaceMark(cell=4), view, 0) == "cell 4 (row 2, column 2)"
    assert plain.describe_event(MarkPlaced(0, 4), view, None) == (
        "X marks cell 4 (row 2, column 2)."
    )
    assert "X to move" in plain.render(view, None)
    loud = registry.ruleset("tictactoe", ["loud"])
    assert loud.seat_names(view, 2) == ["X!", "O!"]
    assert loud.describe(PlaceMark(cell=4), view, 0) == "cell 4 (row 2, column 2)"
    # a plugin's own hook implementation answers before any presentation
    assert registry.ruleset("tictactoe", ["own"]).render(view, None) == "drawn by the plugin"


def test_a_subclass_that_does_not_call_the_base_init_still_dispatches() -> None:
    class OwnInit(Walk):
        def __init__(self, hook: Any) -> None:
            self.hook = hook

    walk = OwnInit(None)
    assert walk.decide({}, Step(), CTX) == [Moved(1)]
    assert walk.evolve({}, Moved(3)) == {"at": 3}
    assert walk.direct() == ({}, {})
