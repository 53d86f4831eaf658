"""Every core hook, with when it fires, its arguments and how results combine.

Plugins implement these with ``@gamehall.core.hookimpl``. Games also declare hookspecs of their
own (phases, effects) with ``@gamehall.core.hookspec`` and list them in ``GameSpec.hookspecs``;
expansions implement those. A hook implementation that matches no spec fails at load
(``check_pending``), so a misspelled name never goes unnoticed.

Two plugin managers call these hooks:

* the **registry** manager holds every installed plugin (loaded through the ``gamehall``
  entry-point group); it calls the *registration* hooks once, at load;
* a **ruleset** manager holds one game and the expansions chosen for a match (the same
  combination shares one manager); it calls the *ruleset* hooks and the game's own hooks, so
  an expansion only acts in matches that enabled it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pluggy

# Hookspecs have no body: their docstrings are the contract.
# mypy: disable-error-code="empty-body"

if TYPE_CHECKING:
    from .calculators import Calculator
    from .codec import Upcaster
    from .drawing import Drawing
    from .events import Command, Event
    from .rules import ExpansionSpec, GameSpec, Invariant

hookspec = pluggy.HookspecMarker("gamehall")
hookimpl = pluggy.HookimplMarker("gamehall")


# -- registration hooks (registry manager, called once at load) --------------------------------


@hookspec
def gamehall_games() -> list[GameSpec]:
    """Register games.

    Fires once when the registry loads plugins. Each result is a list of
    :class:`~gamehall.core.rules.GameSpec`; every list is used. The plugin object that returns a
    spec is registered, with ``GameSpec.hookimpls``, in the ruleset manager of every match of
    that game. Implemented by game plugins.

    :return: the games this plugin provides (an empty list is fine).
    """


@hookspec
def gamehall_expansions() -> list[ExpansionSpec]:
    """Register expansions.

    Fires once when the registry loads plugins; every list is used. The plugin object that
    returns a spec, with ``ExpansionSpec.hookimpls``, joins the ruleset manager of a match only
    when the match enables that expansion. Implemented by expansion plugins.

    :return: the expansions this plugin provides.
    """


@hookspec
def gamehall_upcasters() -> list[Upcaster]:
    """Register upcasters that turn old stored shapes of an event into the current one.

    Fires once when the registry builds its codec; every list is used. Implemented by any plugin
    that raised the ``version`` of one of its event classes.

    :return: one :class:`~gamehall.core.codec.Upcaster` per (tag, old version).
    """


@hookspec
def gamehall_calculators() -> list[Calculator]:
    """Register calculators: tools a game offers beside its matches (an odds calculator).

    Fires when an adapter lists or runs calculators (``gamehall odds GAME``, ``POST
    /games/{game}/calculators/{name}``); every list is used. Each
    :class:`~gamehall.core.calculators.Calculator` names its game, its request and answer
    Structs and a pure ``run``. Implemented by game plugins.

    :return: the calculators this plugin provides.
    """


# -- ruleset hooks (also called on the registry manager to build the codec) --------------------


@hookspec
def gamehall_event_types() -> list[type[Event]]:
    """Declare the event classes a plugin stores.

    Fires when the registry builds the one codec of every loaded plugin, and when a ruleset is
    built (the ruleset's events are those of its game and expansions). Every list is used; a tag
    declared by two different classes is an error at load.

    :return: the plugin's event classes.
    """


@hookspec
def gamehall_command_types() -> list[type[Command]]:
    """Declare the command classes a plugin accepts.

    Fires like :func:`gamehall_event_types`. A match refuses a command whose type is not declared
    by its game or one of its expansions.

    :return: the plugin's command classes.
    """


@hookspec
def gamehall_invariants(rules: Any) -> list[Invariant]:
    """Declare invariants that must hold after every event of a match.

    Fires when a ruleset is built; every list is used (a game's and its expansions'). The
    conformance suite checks them after every event, and ``bisect`` finds the first event after
    which one fails.

    :param rules: the ruleset's rules object (the game's, with its expansions' hooks): an
        invariant that reads the game's components reads them there, expansions included. An
        implementation that does not need it leaves the parameter out.

    :return: :class:`~gamehall.core.rules.Invariant` objects with unique names.
    """


@hookspec(firstresult=True)
def gamehall_render_text(view: Any, seat: int | None) -> str | None:
    """Render a seat's view as text for a terminal.

    Fires when an adapter shows a board. ``view`` is what ``Rules.view`` returned for ``seat``
    (never the raw state, so a renderer cannot leak). Stops at the first non-``None`` result; an
    expansion that draws extra parts can wrap the game's renderer with ``wrapper=True``.

    :param view: the seat's view of the state.
    :param seat: the seat that looks, or ``None`` for a spectator.
    :return: the board as text, or ``None`` to leave it to another plugin.
    """


@hookspec(firstresult=True)
def gamehall_draw_board(view: Any, seat: int | None, legal: list[Command]) -> Drawing | None:
    """Draw a seat's view as a picture for the web page, with its legal commands as places.

    Fires whenever the web page shows a board, live or in a replay. ``view`` is what
    ``Rules.view`` returned for ``seat`` (never the raw state: hidden things can only be drawn
    hidden). ``legal`` is what ``seat`` may send now (empty for a spectator and in a replay);
    a shape given some of them (``shape(..., commands=[...])``) becomes a place to click, and
    the page lists the commands no shape sends. Build the picture with
    :mod:`gamehall.core.drawing`. Stops at the first non-``None`` result; without one the page
    shows the text board and the view's fields. An expansion that draws extra parts can wrap
    the game's drawing with ``wrapper=True``.

    :param view: the seat's view of the state.
    :param seat: the seat that looks, or ``None`` for a spectator.
    :param legal: the seat's legal commands now.
    :return: a :class:`~gamehall.core.drawing.Drawing`, or ``None`` to leave it to another plugin.
    """


# -- words (ruleset manager): what people read ------------------------------------------------
#
# Every adapter (terminal, stdio, HTTP, web page) shows the same words, so they come from the
# game through these hooks and never from an adapter. Each gets the asking seat's *view*, never
# the raw state, so a description cannot leak what the seat may not see. An expansion that adds
# components answers for them before the game does (a ruleset registers the expansions after
# the game, and pluggy calls the latest registered first), or wraps the game's answer
# (``wrapper=True``); the game answers ``None`` for what it does not know.


@hookspec(firstresult=True)
def gamehall_describe_command(command: Command, view: Any, seat: int | None) -> str | None:
    """Describe a command in the words of the rulebook, for menus and bot moves.

    Fires when an adapter lists legal commands for a person or tells what a bot chose. Stops
    at the first non-``None`` result; without one the engine makes words from the command's
    type and fields (never JSON). Commands that do different things must read differently;
    commands that read the same are shown once in a menu.

    :param command: a legal command.
    :param view: the asking seat's view of the state.
    :param seat: the asking seat.
    :return: one line, such as "place Jumbo (3) on spot 14".
    """


@hookspec(firstresult=True)
def gamehall_describe_event(event: Event, view: Any, seat: int | None) -> str | None:
    """Tell what an event was, in a sentence for the seat that reads it.

    Fires for every event an adapter shows a person (the terminal's log, the ``text`` field of
    stdio and HTTP event lines and of the live streams). ``event`` is already redacted for
    ``seat``: a hidden draw reads as what that seat knows ("Red drew 2 troops"). Stops at the
    first non-``None`` result; without one the engine makes words from the event's type.

    :param event: the event as ``seat`` may see it.
    :param view: ``seat``'s view of the state just *before* the event.
    :param seat: the reading seat, or ``None`` for a spectator.
    :return: one sentence.
    """


@hookspec(firstresult=True)
def gamehall_seat_names(view: Any) -> list[str] | None:
    """Name the seats as the players know them: colours, clans, houses.

    Fires whenever a seat is named to a person (menus, logs, endings). Stops at the first
    non-``None`` result; the default is "seat 0", "seat 1", ...

    :param view: any seat's view (names are public).
    :return: one name per seat, in seat order.
    """


@hookspec(firstresult=True)
def gamehall_command_group(command: Command, view: Any, seat: int | None) -> str | None:
    """Return the heading a command is listed under in a long menu ("Place Jumbo (3)").

    Fires when an adapter shows a menu; commands with the same heading are listed together,
    headings in the order they first appear. Stops at the first non-``None`` result; ``None``
    everywhere leaves the menu flat.

    :param command: a legal command.
    :param view: the asking seat's view of the state.
    :param seat: the asking seat.
    """
