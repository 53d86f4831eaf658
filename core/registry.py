"""Load plugins through the ``gamehall`` entry-point group and build one ruleset per combination.

Built-in games load exactly like third-party ones: through the entry-point group and the same
plugin manager. A ruleset is a game with a set of expansions; it owns a plugin manager that
holds only those plugins, so two matches of one game with different expansions run side by
side, each with its own hooks.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, cast

import msgspec
import pluggy

from . import hookspecs, words
from .codec import Codec, Upcaster
from .errors import CorruptRecord, InvalidOptions, PluginError, UnknownGame
from .events import CORE_COMMANDS, CORE_EVENTS, Command, Event, ExpansionRef, MatchStarted, tag_of
from .hookcalls import Hooks
from .limits import INT64_MAX, shown
from .presentation import Presentation, PresentationHooks
from .rules import ExpansionSpec, GameSpec, Invariant, MatchConfig, Rules

ENTRY_POINT_GROUP = "gamehall"


def _new_manager() -> pluggy.PluginManager:
    pm = pluggy.PluginManager("gamehall")
    pm.add_hookspecs(hookspecs)
    return pm


def _flatten(results: Iterable[Iterable[Any] | None]) -> list[Any]:
    return [item for result in results if result for item in result]


class Registry:
    """Every installed game and expansion, and the codec that covers them all."""

    def __init__(
        self,
        plugins: Iterable[object] = (),
        *,
        entry_points: bool = True,
        distributions: Collection[str] | None = None,
    ) -> None:
        """Load the entry points (only those of ``distributions`` when given) and ``plugins``."""
        self.games: dict[str, GameSpec] = {}
        self.expansions: dict[str, ExpansionSpec] = {}
        self._owners: dict[str, object] = {}
        try:
            self.pm = _new_manager()
            if entry_points:
                _load_entry_points(self.pm, distributions)
            for plugin in plugins:
                self.pm.register(plugin)
            self._collect()
            self.pm.check_pending()
            self._check_spec_hookimpls()
        except pluggy.PluginValidationError as exc:
            raise PluginError(f"plugin {exc.plugin!r}: {exc}") from None
        specs: list[GameSpec | ExpansionSpec] = [*self.games.values(), *self.expansions.values()]
        events = [
            *CORE_EVENTS,
            *_flatten(self.pm.hook.gamehall_event_types()),
            *(kind for spec in specs for kind in spec.events),
        ]
        commands = [
            *CORE_COMMANDS,
            *_flatten(self.pm.hook.gamehall_command_types()),
            *(kind for spec in specs for kind in spec.commands),
        ]
        upcasters: list[Upcaster] = _flatten(self.pm.hook.gamehall_upcasters())
        self.codec = Codec(events, commands, upcasters)
        self._rulesets: dict[tuple[str, tuple[str, ...]], Ruleset] = {}

    def _collect(self) -> None:
        for impl in self.pm.hook.gamehall_games.get_hookimpls():
            games = cast("list[GameSpec]", impl.function() or [])
            for game in games:
                self._add(self.games, game.id, game, impl.plugin, "game")
                for spec in game.hookspecs:
                    self.pm.add_hookspecs(spec)
        for impl in self.pm.hook.gamehall_expansions.get_hookimpls():
            expansions = cast("list[ExpansionSpec]", impl.function() or [])
            for expansion in expansions:
                self._add(self.expansions, expansion.id, expansion, impl.plugin, "expansion")
        for expansion in self.expansions.values():
            if expansion.game not in self.games:
                raise PluginError(
                    f"expansion {expansion.id!r} is for game {expansion.game!r}, "
                    "which no installed plugin registers"
                )

    def _check_spec_hookimpls(self) -> None:
        # Objects listed in a spec's hookimpls join rulesets only; check their names now, so a
        # misspelled hook fails at load like any other.
        pm = _new_manager()
        for game in self.games.values():
            for spec in game.hookspecs:
                pm.add_hookspecs(spec)
        specs: list[GameSpec | ExpansionSpec] = [*self.games.values(), *self.expansions.values()]
        for owner in specs:
            for impl in owner.hookimpls:
                if not pm.is_registered(impl):
                    pm.register(impl)
        pm.check_pending()

    def _add(self, table: dict[str, Any], key: str, spec: Any, owner: object, kind: str) -> None:
        if key in table or key in self.games or key in self.expansions:
            raise PluginError(f"{kind} id {key!r} is registered twice")
        table[key] = spec
        self._owners[key] = owner

    def game(self, game_id: str) -> GameSpec:
        """Return a game by id, or raise :class:`UnknownGame` listing the installed ones."""
        try:
            return self.games[game_id]
        except KeyError:
            known = ", ".join(sorted(self.games)) or "none"
            raise UnknownGame(f"unknown game {game_id!r} (installed: {known})") from None

    def expansions_of(self, game_id: str) -> list[ExpansionSpec]:
        """Return the installed expansions of a game."""
        return [e for e in self.expansions.values() if e.game == game_id]

    def ruleset(self, game_id: str, expansions: Sequence[str] = ()) -> Ruleset:
        """Return the shared ruleset of a game with exactly these expansions."""
        key = (game_id, tuple(sorted(set(expansions))) if expansions else ())
        ruleset = self._rulesets.get(key)
        if ruleset is None:
            ruleset = self._rulesets[key] = Ruleset(self, *key)
        return ruleset

    def ruleset_of(self, started: MatchStarted, match: str = "") -> Ruleset:
        """Return the ruleset a match was started with, checking installed versions.

        A first event no create could have written (players outside the game's range, a
        seed outside 0 to 2**63 - 1) raises :class:`CorruptRecord` before anything is sized
        by it: a damaged or hand-made log, never a match to rebuild.
        """
        expansions = started.expansions
        # Most matches have no expansion: their ruleset is found without building a key.
        ruleset = None if expansions else self._rulesets.get((started.game, ()))
        if ruleset is None:
            ruleset = self.ruleset(started.game, [e.id for e in expansions])
        ruleset.check_versions(started)
        low, high = ruleset.player_range
        players = started.players
        if isinstance(players, bool) or not isinstance(players, int) or not low <= players <= high:
            allowed = f"{low}" if low == high else f"{low} to {high}"
            reason = (
                f"it starts with {shown(str(players), 24)} players; {ruleset.name} plays {allowed}"
            )
            raise CorruptRecord(match, 1, reason)
        seed = started.seed
        if seed is not None and not 0 <= seed <= INT64_MAX:
            raise CorruptRecord(match, 1, f"its seed {shown(str(seed), 24)} is not 0 to 2**63 - 1")
        return ruleset

    def owner(self, key: str) -> object:
        """Return the plugin object that registered a game or expansion."""
        return self._owners[key]


class Ruleset:
    """A game with a fixed set of expansions: its hooks, rules, types and invariants."""

    def __init__(self, registry: Registry, game_id: str, expansion_ids: tuple[str, ...]) -> None:
        self.registry = registry
        self.codec = registry.codec
        self.game = registry.game(game_id)
        self.expansions = tuple(self._expansion(registry, x) for x in expansion_ids)
        self._check_combination()
        try:
            self.pm = _new_manager()
            for spec in self.game.hookspecs:
                self.pm.add_hookspecs(spec)
            self._register(registry.owner(game_id), *self.game.hookimpls)
            for expansion in self.expansions:
                self._register(registry.owner(expansion.id), *expansion.hookimpls)
            self.pm.check_pending()
        except pluggy.PluginValidationError as exc:
            raise PluginError(f"plugin {exc.plugin!r}: {exc}") from None
        # The rules call hooks while they decide: through a relay that skips pluggy's general
        # call path where it may (core/hookcalls.py).
        self.hook = Hooks(self.pm)
        specs: tuple[GameSpec | ExpansionSpec, ...] = (self.game, *self.expansions)
        self.event_types = (
            frozenset(CORE_EVENTS)
            | frozenset(_flatten(self.hook.gamehall_event_types()))
            | frozenset(kind for spec in specs for kind in spec.events)
        )
        self.command_types: frozenset[type[Command]] = frozenset(
            _flatten(self.hook.gamehall_command_types())
        ) | frozenset(kind for spec in specs for kind in spec.commands)
        self.rules: Rules[Any] = self.game.rules(self.hook)
        # Whether every seat and spectator sees each of the game's events whole (the default
        # redact with no secret or private field): its commands' answers then skip redact.
        self.public = (
            type(self.rules).redact is Rules.redact
            and not self.rules.secret_fields
            and not self.rules.private_fields
        )
        self.presentation = Presentation()
        for spec in specs:
            if spec.presentation is not None:
                self.presentation = spec.presentation(self.rules, self.presentation)
        self.pm.register(PresentationHooks(self.presentation, self.game.id))
        invariants: list[Invariant] = [
            *(inv for spec in specs if spec.invariants for inv in spec.invariants(self.rules)),
            *_flatten(self.hook.gamehall_invariants(rules=self.rules)),
        ]
        self.invariants = {inv.name: inv for inv in invariants}
        self.versions = {self.game.id: self.game.version} | {
            e.id: e.version for e in self.expansions
        }
        owners = {self.game.id: registry.owner(game_id)} | {
            e.id: registry.owner(e.id) for e in self.expansions
        }
        self.data = {k: hashes for k, o in owners.items() if (hashes := component_data(o))}
        self.key = (self.game.id, expansion_ids)
        self._default: tuple[MatchStarted, MatchConfig] | None = None
        self._configs: dict[int, MatchConfig] = {}  # by player count: default options

    @staticmethod
    def _expansion(registry: Registry, expansion_id: str) -> ExpansionSpec:
        expansion = registry.expansions.get(expansion_id)
        if expansion is None:
            known = ", ".join(sorted(registry.expansions)) or "none"
            raise UnknownGame(f"unknown expansion {expansion_id!r} (installed: {known})")
        return expansion

    def _check_combination(self) -> None:
        ids = {e.id for e in self.expansions}
        for expansion in self.expansions:
            if expansion.game != self.game.id:
                raise InvalidOptions(
                    f"expansion {expansion.id!r} is for {expansion.game!r}, not {self.game.id!r}"
                )
            for needed in expansion.requires:
                if needed not in ids:
                    raise InvalidOptions(f"expansion {expansion.id!r} requires {needed!r}")
            for other in expansion.conflicts:
                if other in ids:
                    raise InvalidOptions(f"expansion {expansion.id!r} conflicts with {other!r}")

    def _register(self, *plugins: object) -> None:
        for plugin in plugins:
            if not self.pm.is_registered(plugin):
                self.pm.register(plugin)

    @property
    def name(self) -> str:
        """Return ``game+expansion+…``, the ruleset's name in logs and listings."""
        return "+".join((self.game.id, *(e.id for e in self.expansions)))

    @functools.cached_property
    def player_range(self) -> tuple[int, int]:
        """Return the smallest and largest player counts this combination allows."""
        low, high = self.game.min_players, self.game.max_players
        for e in self.expansions:
            low = max(low, e.min_players or low)
            high = min(high, e.max_players or high)
        return low, high

    @functools.cached_property
    def direct(
        self,
    ) -> tuple[
        Mapping[type[Command], Callable[..., Any]], Mapping[type[Event], Callable[..., Any]]
    ]:
        """Return the rules' bound ``@decides`` and ``@evolves`` methods by exact type
        (:meth:`Rules.direct`), the deciding ones only for the command types of this ruleset:
        a command a runner finds there is of a known type, with no other check."""
        deciding, applying = self.rules.direct()
        known = self.command_types
        return {kind: m for kind, m in deciding.items() if kind in known}, applying

    # -- starting matches ------------------------------------------------------------------

    def started(
        self,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        expansion_options: Mapping[str, Mapping[str, Any]] | None = None,
        seed: int | None = None,
    ) -> MatchStarted:
        """Validate a request and return the first event of a new match."""
        low, high = self.player_range
        players = low if players is None else players
        if not isinstance(players, int) or not low <= players <= high:
            allowed = f"{low} players" if low == high else f"{low} to {high} players"
            raise InvalidOptions(f"{self.name} plays with {allowed}, not {players!r}")
        expansion_options = dict(expansion_options or {})
        for unknown in set(expansion_options) - {e.id for e in self.expansions}:
            raise InvalidOptions(f"options given for expansion {unknown!r}, which is not enabled")
        clean = _clean_options(self.game.options, options or {}, self.game.id)
        refs = tuple(
            ExpansionRef(
                e.id, e.version, _clean_options(e.options, expansion_options.get(e.id, {}), e.id)
            )
            for e in self.expansions
        )
        if seed is None:
            import secrets

            seed = secrets.randbits(63)
        return MatchStarted(
            game=self.game.id,
            game_version=self.game.version,
            players=players,
            options=clean,
            expansions=refs,
            seed=seed,
            data=self.data,
        )

    def default_start(self, seed: int | None = None) -> tuple[MatchStarted, MatchConfig]:
        """Return the first event of a match with the fewest players and default options, and
        its config: validated and built once per ruleset (as :meth:`started` and :meth:`config`
        would), then only the seed changes (``None``: a random one)."""
        made = self._default
        if made is None:
            started = self.started(seed=0)
            made = self._default = (started, self.config(started))
        if seed is None:
            import secrets

            seed = secrets.randbits(63)
        return msgspec.structs.replace(made[0], seed=seed), made[1]

    def config(self, started: MatchStarted) -> MatchConfig:
        """Return the game's view of a match's first event (typed options, no seed).

        A match of today's version with default options and no expansion, as most are, gets
        the one config built for its player count (as :meth:`default_start` shares its own).
        """
        if not started.options and not started.expansions:
            if started.game_version == self.game.version:
                made = self._configs.get(started.players)
                if made is None:
                    made = self._configs[started.players] = self._config(started)
                return made
        return self._config(started)

    def _config(self, started: MatchStarted) -> MatchConfig:
        game = self.game
        options = _typed_options(
            game.options, _upcast(game, started.game_version, started.options), game.id
        )
        expansion_options = {
            ref.id: _typed_options(
                self._spec(ref.id).options,
                _upcast(self._spec(ref.id), ref.version, ref.options),
                ref.id,
            )
            for ref in started.expansions
        }
        return MatchConfig(
            players=started.players,
            options=options,
            expansions=tuple(ref.id for ref in started.expansions),
            expansion_options=expansion_options,
        )

    def _spec(self, expansion_id: str) -> ExpansionSpec:
        return next(e for e in self.expansions if e.id == expansion_id)

    def check_versions(self, started: MatchStarted) -> None:
        """Refuse a match recorded by a major version of a plugin that is not installed."""
        if started.game_version == self.game.version and (
            not started.expansions
            or all(self.versions.get(e.id) == e.version for e in started.expansions)
        ):
            self.check_data(started)
            return  # the common case: recorded with exactly what is installed
        recorded = {started.game: started.game_version} | {
            e.id: e.version for e in started.expansions
        }
        for plugin, version in recorded.items():
            installed = self.versions.get(plugin)
            if installed is None or _major(installed) != _major(version):
                raise PluginError(
                    f"the match was recorded with {plugin} {version}, "
                    f"but {plugin} {installed or 'is not'} installed"
                )
        self.check_data(started)

    def check_data(self, started: MatchStarted) -> None:
        """Refuse a match whose plugin, at the version it was played with, has other data now.

        A plugin's component data (its ``data/`` files) may only change with its version; a
        newer version decides how it reads an older match. Under the same version, a file whose
        hash differs from the recorded one is refused, naming the file, unless the plugin lists
        the recorded hash in its spec's ``accepted_data`` (an edit that plays the same).
        """
        if started.data == self.data:
            return
        recorded_versions = {started.game: started.game_version} | {
            e.id: e.version for e in started.expansions
        }
        for plugin, files in started.data.items():
            if self.versions.get(plugin) != recorded_versions.get(plugin):
                continue
            now = self.data.get(plugin, {})
            accepted = self._spec_of(plugin).accepted_data
            for path, digest in files.items():
                if now.get(path) != digest and digest not in accepted.get(path, ()):
                    raise PluginError(
                        f"the match was played with other component data: {path} of {plugin} "
                        f"{recorded_versions[plugin]} has changed since (recorded {digest}, "
                        f"now {now.get(path, 'missing')}); restore the file, or release the "
                        f"change as a new version of {plugin}"
                    )

    def _spec_of(self, plugin: str) -> GameSpec | ExpansionSpec:
        return self.game if plugin == self.game.id else self._spec(plugin)

    def accepts(self, command: Command) -> bool:
        """Tell whether a command type belongs to this game or one of its expansions."""
        return type(command) in self.command_types

    def owns(self, event: Event) -> bool:
        """Tell whether an event type belongs to this ruleset."""
        return type(event) in self.event_types

    def render(self, view: Any, seat: int | None) -> str:
        """Return the board as text for a seat's view (JSON when no plugin renders it)."""
        text = self.hook.gamehall_render_text(view=view, seat=seat)
        if text is None:
            return self.codec.to_json(view).decode()
        return str(text)

    def describe(self, command: Command, view: Any, seat: int | None) -> str:
        """Return a command in the rulebook's words (see :mod:`gamehall.core.words`)."""
        return words.describe_command(self, command, view, seat)

    def describe_event(self, event: Event, view: Any, seat: int | None) -> str:
        """Return what a (redacted) event was, for ``seat`` whose view before it is ``view``."""
        return words.describe_event(self, event, view, seat)

    def seat_names(self, view: Any, players: int) -> list[str]:
        """Return what the players call each seat."""
        return words.seat_names(self, view, players)


def component_data(owner: object) -> dict[str, str]:
    """Return a hash of each component data file of a plugin package (``data/``, recursively).

    A plugin that is not a package (a single module, an object) has none.
    """
    path = getattr(owner, "__file__", None)
    if not path or Path(path).name != "__init__.py":
        return {}
    root = Path(path).parent
    folder = root / "data"
    if not folder.is_dir():
        return {}
    return {
        file.relative_to(root).as_posix(): hashlib.sha256(file.read_bytes()).hexdigest()[:16]
        for file in sorted(folder.rglob("*"))
        if file.is_file() and not file.name.startswith(".")
    }


def _major(version: str) -> str:
    parts = version.split(".")
    return f"0.{parts[1]}" if parts[0] == "0" and len(parts) > 1 else parts[0]


def _upcast(
    spec: GameSpec | ExpansionSpec, recorded: str, options: dict[str, Any]
) -> dict[str, Any]:
    """Return a match's stored options as the installed version of a plugin reads them."""
    if spec.upcast_options is None or recorded == spec.version:
        return options
    return spec.upcast_options(recorded, dict(options))


def _clean_options(
    schema: type[msgspec.Struct] | None, options: Mapping[str, Any], owner: str
) -> dict[str, Any]:
    """Return options as they are stored: what a JSON log keeps, so that replay sees the same.

    Tuples become lists and integer keys strings, exactly as after a trip through a JSON log;
    the match itself starts from this stored form, so live play and every replay agree.
    """
    typed = _typed_options(schema, options, owner)
    if typed is None:
        return {}
    try:
        stored: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(typed))
        _typed_options(schema, stored, owner)
    except (TypeError, msgspec.EncodeError, InvalidOptions) as exc:
        raise InvalidOptions(f"{owner} options cannot be stored in a log: {exc}") from None
    return stored


def _typed_options(
    schema: type[msgspec.Struct] | None, options: Mapping[str, Any], owner: str
) -> Any:
    if schema is None:
        if options:
            raise InvalidOptions(f"{owner} takes no options, got {sorted(options)}")
        return None
    known = set(getattr(schema, "__struct_encode_fields__", ())) | set(schema.__struct_fields__)
    unknown = sorted(set(options) - known)
    if unknown:
        raise InvalidOptions(
            f"unknown {owner} option{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))}"
            f" (options: {', '.join(sorted(known)) or 'none'})"
        )
    try:
        return msgspec.convert(dict(options), schema, strict=False)
    except msgspec.ValidationError as exc:
        raise InvalidOptions(f"invalid {owner} options: {exc}") from None


def _load_entry_points(pm: pluggy.PluginManager, distributions: Collection[str] | None) -> None:
    """Load the group's entry points, only those of some distributions when they are named."""
    if distributions is None:
        pm.load_setuptools_entrypoints(ENTRY_POINT_GROUP)
        return
    wanted = {_canonical(name) for name in distributions}
    chosen: set[str] = set()
    others: set[str] = set()
    for dist in importlib.metadata.distributions():
        names = {ep.name for ep in dist.entry_points if ep.group == ENTRY_POINT_GROUP}
        (chosen if _canonical(dist.metadata["Name"] or "") in wanted else others).update(names)
    for name in others - chosen:
        pm.set_blocked(name)
    pm.load_setuptools_entrypoints(ENTRY_POINT_GROUP)
    for _, loaded in pm.list_plugin_distinfo():
        if _canonical(loaded.project_name) not in wanted:
            raise PluginError(
                f"entry point names of {loaded.project_name!r} are also used by "
                f"{', '.join(sorted(distributions))}: rename them"
            )


def _canonical(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


_DEFAULT: Registry | None = None
_BUILTIN: Registry | None = None
BUILTIN_DISTRIBUTION = "gamehall"


def default_registry() -> Registry:
    """Return the registry of every installed plugin, loaded once per process."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Registry()
    return _DEFAULT


def builtin_registry() -> Registry:
    """Return the registry of gamehall's own plugins only, whatever else is installed.

    Checks about the built-in set (conformance, golden replays, docs) use it, so that a
    third-party plugin installed beside gamehall never changes what they see.
    """
    global _BUILTIN
    if _BUILTIN is None:
        _BUILTIN = Registry(distributions=[BUILTIN_DISTRIBUTION])
    return _BUILTIN


def tags(types: Iterable[type[msgspec.Struct]]) -> list[str]:
    """Return the tags of some Struct classes, sorted."""
    return sorted(tag_of(t) for t in types)
