"""A ruleset's hooks, called with less work a call than pluggy's general path.

Rules call their game's hooks while they decide (who wins a line, what a build costs), and
pluggy's ``HookCaller`` copies its implementations, checks the arguments and runs its
wrapper-aware loop at every call: about 1.5 µs, as much as a whole tic-tac-toe move. A
:class:`Hooks` answers every call as pluggy would (same implementations, same order, same
result), calling the implementations itself where pluggy would only call them in turn: no
wrapper among them, the call gives exactly the spec's arguments, and nothing watches the
calls (``add_hookcall_monitoring``, tracing). Any other call goes to pluggy.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pluggy

# pluggy's own executor of calls, which a new manager has: another one in a manager's place means
# its calls are watched (add_hookcall_monitoring, tracing), and pluggy then makes every call.
PLAIN = getattr(pluggy.PluginManager("gamehall"), "_inner_hookexec", None)

# A plan: each implementation to call, newest first as pluggy calls them, with the names of the
# arguments it takes, or ``None`` where it takes every argument of the spec by keyword.
Plan = tuple[tuple[Callable[..., Any], tuple[str, ...] | None], ...]
# What a call reads: the hook caller, its manager, the implementations the plan was made from,
# the spec's arguments (``None``: no plan) and the implementation to call alone, if one.
Now = tuple[Any, Any, list[Any] | None, frozenset[str] | None, Callable[..., Any] | None]


class Hooks:
    """A plugin manager's hooks: ``hooks.name(**kwargs)`` as ``pm.hook.name(**kwargs)``.

    Every other attribute of a hook (``get_hookimpls``, ``spec``, ``call_extra``) is the
    pluggy hook caller's.
    """

    def __init__(self, pm: pluggy.PluginManager) -> None:
        self._pm = pm

    def __getattr__(self, name: str) -> Any:
        # Read without __getattr__: a copy being made has no manager yet, and must not recurse.
        pm: pluggy.PluginManager = object.__getattribute__(self, "_pm")
        caller = getattr(pm.hook, name)  # AttributeError for an unknown hook, as pluggy
        # A pluggy that keeps its implementations elsewhere gets every call itself.
        call = HookCall(caller, pm) if hasattr(caller, "_hookimpls") else caller
        setattr(self, name, call)
        return call

    def __dir__(self) -> list[str]:
        return dir(object.__getattribute__(self, "_pm").hook)


class HookCall:
    """One hook: called straight through its plan while the plan still holds, else by pluggy."""

    __slots__ = ("_caller", "_firstresult", "_now", "_plan", "_pm", "_seen")

    def __init__(self, caller: pluggy.HookCaller, pm: pluggy.PluginManager) -> None:
        self._caller = caller
        self._pm = pm
        self._seen: list[Any] | None = None  # the implementations the plan was made from
        self._plan: Plan | None = None
        self._firstresult = False
        # What a call checks and calls, in one attribute (each attribute read of a class with
        # __getattr__ is a slow one): the caller, the manager, the implementations the plan was
        # made from, the spec's arguments (None: no plan), and the one implementation of a
        # first-result hook that takes every argument by keyword (a game's default, alone).
        self._now: Now = (caller, pm, None, None, None)

    def __getattr__(self, name: str) -> Any:
        return getattr(object.__getattribute__(self, "_caller"), name)

    def __repr__(self) -> str:
        return f"<HookCall {self._caller.name!r}>"

    def __call__(self, **kwargs: Any) -> Any:
        """Call the hook with keyword arguments, as pluggy's ``HookCaller`` is called."""
        caller, pm, seen, names, one = self._now
        if caller._hookimpls == seen and pm._inner_hookexec is PLAIN and kwargs.keys() == names:
            if one is not None:
                return one(**kwargs)
            return self._run(kwargs)
        if caller._hookimpls != seen or pm._inner_hookexec is not PLAIN:
            self._prepare()
            if kwargs.keys() == self._now[3]:
                return self._run(kwargs)
        return caller(**kwargs)

    def _run(self, kwargs: dict[str, Any]) -> Any:
        """Call the implementations through the plan, as pluggy would."""
        plan = self._plan
        assert plan is not None  # there are names only while there is a plan
        if self._firstresult:
            for function, names in plan:
                if names is None:
                    result = function(**kwargs)
                else:
                    result = function(*[kwargs[name] for name in names])
                if result is not None:
                    return result
            return None
        results = []
        for function, names in plan:
            if names is None:
                result = function(**kwargs)
            else:
                result = function(*[kwargs[name] for name in names])
            if result is not None:
                results.append(result)
        return results

    def _prepare(self) -> None:
        """Make the plan for the hook's implementations now, or none where pluggy must call."""
        caller = self._caller
        impls = list(caller._hookimpls)
        self._seen, self._plan, self._now = impls, None, (caller, self._pm, impls, None, None)
        spec = caller.spec
        if (
            PLAIN is None
            or self._pm._inner_hookexec is not PLAIN
            or spec is None
            or spec.kwargdefaults
            or caller.is_historic()
            or any(impl.hookwrapper or impl.wrapper or impl.kwargnames for impl in impls)
        ):
            return
        names = frozenset(spec.argnames)
        self._firstresult = bool(spec.opts.get("firstresult"))
        plan = self._plan = tuple(
            (impl.function, None if _by_keyword(impl, names) else tuple(impl.argnames))
            for impl in reversed(impls)
        )
        alone = self._firstresult and len(plan) == 1 and plan[0][1] is None
        self._now = (caller, self._pm, impls, names, plan[0][0] if alone else None)


def _by_keyword(impl: Any, names: frozenset[str]) -> bool:
    """Tell whether an implementation takes exactly the spec's arguments, each by keyword."""
    function = getattr(impl.function, "__func__", impl.function)
    code = getattr(function, "__code__", None)
    return code is not None and code.co_posonlyargcount == 0 and set(impl.argnames) == names
