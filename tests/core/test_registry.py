"""The registry: entry-point loading, hook checks at load, rulesets, options, versions, hook docs."""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import inspect
import re
from pathlib import Path
from typing import Annotated, Any, Literal

import gamehall.plugins.tictactoe as tictactoe_plugin
import gamehall.plugins.tictactoe_misere as misere_plugin
import msgspec
import pluggy
import pytest
from gamehall.core import (
    ExpansionSpec,
    GameSpec,
    InvalidOptions,
    MatchStarted,
    PluginError,
    Registry,
    Table,
    UnknownGame,
    hookimpl,
    hookspecs,
)
from gamehall.core.events import ExpansionRef
from gamehall.core.registry import ENTRY_POINT_GROUP
from gamehall.core.rules import release
from gamehall.plugins.tictactoe.commands import PlaceMark

from tests.core.dice_game import (
    DICE,
    Dice,
    DicePlugin,
    DiceWith,
    OwnRedact,
    PrivateRolls,
    SecretRolls,
)

ROOT = Path(__file__).resolve().parents[2]

# -- entry points ------------------------------------------------------------------------------


def builtin_entry_points() -> list[importlib.metadata.EntryPoint]:
    """Return the group's entry points of gamehall itself (outside plugins may add more)."""
    dist = importlib.metadata.distribution("gamehall")
    return [ep for ep in dist.entry_points if ep.group == ENTRY_POINT_GROUP]


def test_entry_point_group_names_every_builtin_plugin(registry: Registry) -> None:
    eps = builtin_entry_points()
    by_module = {ep.value: ep.name for ep in eps}
    owners = {key: registry.owner(key) for key in [*registry.games, *registry.expansions]}
    assert owners, "no game is installed"
    for key, owner in owners.items():
        name = getattr(owner, "__name__", None)
        assert name in by_module, f"{key} is registered by {owner!r}, which no entry point names"
        # the entry point's name is the id of what it registers
        assert by_module[name] == key
    # and every entry point provides something
    assert set(by_module.values()) == set(owners)


def test_every_plugin_package_has_an_entry_point() -> None:
    eps = {ep.value for ep in builtin_entry_points()}
    packages = sorted(p.parent.name for p in (ROOT / "plugins").glob("*/__init__.py"))
    assert packages
    for package in packages:
        assert f"gamehall.plugins.{package}" in eps, (
            f"plugins/{package} has no gamehall entry point"
        )


def test_builtin_plugins_load_through_the_entry_points_not_by_import(registry: Registry) -> None:
    # a registry without entry points knows no game: nothing registers itself on import
    bare = Registry(entry_points=False)
    assert bare.games == {} and bare.expansions == {}
    # the default registry's plugins came through setuptools entry points of the installed dist
    loaded = {
        getattr(plugin, "__name__", None): dist
        for plugin, dist in registry.pm.list_plugin_distinfo()
    }
    for key in [*registry.games, *registry.expansions]:
        module = registry.owner(key).__name__  # type: ignore[attr-defined]
        assert module in loaded, f"{key} was not loaded through an entry point"
        assert loaded[module].project_name == "gamehall"


def test_an_entry_point_module_is_the_plugin_object(registry: Registry) -> None:
    for ep in builtin_entry_points():
        assert registry.pm.get_plugin(ep.name) is importlib.import_module(ep.value)


# -- hooks checked at load ---------------------------------------------------------------------


class MisspelledCoreHook:
    @hookimpl
    def gamehall_gamez(self) -> list[GameSpec]:
        return []


class MisspelledGameHookExpansion:
    @hookimpl
    def gamehall_expansions(self) -> list[ExpansionSpec]:
        return [ExpansionSpec(id="typo-exp", name="Typo", version="1.0.0", game="tictactoe")]

    @hookimpl
    def tictactoe_line_winer(self, seat: int) -> int:
        return seat


def test_a_misspelled_core_hook_fails_at_load() -> None:
    with pytest.raises(PluginError, match="gamehall_gamez"):
        Registry([MisspelledCoreHook()], entry_points=False)


def test_a_misspelled_game_hook_of_an_expansion_fails_at_load() -> None:
    with pytest.raises(PluginError, match="tictactoe_line_winer"):
        Registry([tictactoe_plugin, MisspelledGameHookExpansion()], entry_points=False)


class WrongCoreArgument:
    @hookimpl
    def gamehall_render_text(self, vue: Any, seat: int | None) -> str | None:
        return None


class WrongGameArgument:
    @hookimpl
    def tictactoe_line_winner(self, player: int) -> int:
        return player


def test_a_hook_with_a_wrong_argument_fails_at_load() -> None:
    # whatever the error class, loading stops and names the argument
    with pytest.raises((PluginError, pluggy.PluginValidationError), match="vue"):
        Registry([WrongCoreArgument()], entry_points=False)
    with pytest.raises((PluginError, pluggy.PluginValidationError), match="player"):
        Registry([tictactoe_plugin, WrongGameArgument()], entry_points=False)


@pytest.mark.parametrize(
    "plugins",
    [[WrongCoreArgument()], [tictactoe_plugin, WrongGameArgument()]],
    ids=["core", "game"],
)
def test_a_hook_with_a_wrong_argument_is_a_plugin_error(plugins: list[object]) -> None:
    with pytest.raises(PluginError):
        Registry(plugins, entry_points=False)


class _TypoImpl:
    @hookimpl
    def tictactoe_line_winer(self, seat: int) -> int:
        return seat


class TypoInSpecHookimpls:
    """The misspelled hook sits on an object listed in ``ExpansionSpec.hookimpls``."""

    @hookimpl
    def gamehall_expansions(self) -> list[ExpansionSpec]:
        return [
            ExpansionSpec(id="spec-typo", name="Typo", version="1.0.0", game="tictactoe",
                          hookimpls=(_TypoImpl(),))
        ]  # fmt: skip


def test_a_misspelled_hook_in_expansion_hookimpls_fails_at_load() -> None:
    with pytest.raises(PluginError, match="tictactoe_line_winer"):
        Registry([tictactoe_plugin, TypoInSpecHookimpls()], entry_points=False)


# -- duplicates and missing games ---------------------------------------------------------------


class Games:
    def __init__(self, *games: GameSpec) -> None:
        self.games = games

    @hookimpl
    def gamehall_games(self) -> list[GameSpec]:
        return list(self.games)


class Expansions:
    def __init__(self, *expansions: ExpansionSpec) -> None:
        self.expansions = expansions

    @hookimpl
    def gamehall_expansions(self) -> list[ExpansionSpec]:
        return list(self.expansions)


def test_duplicate_game_ids_are_refused() -> None:
    with pytest.raises(PluginError, match="'dice'.*twice"):
        Registry([DicePlugin(), Games(DICE)], entry_points=False)


def test_a_third_party_game_cannot_take_a_builtin_id(registry: Registry) -> None:
    copy = GameSpec(**{**DICE.__dict__, "id": "tictactoe"})
    with pytest.raises(PluginError, match="tictactoe"):
        Registry([Games(copy)])


def test_an_expansion_id_equal_to_a_game_id_is_refused() -> None:
    clash = ExpansionSpec(id="dice", name="Clash", version="1.0.0", game="dice")
    with pytest.raises(PluginError, match="'dice'"):
        Registry([DicePlugin(), Expansions(clash)], entry_points=False)


def test_an_expansion_for_a_game_that_is_not_installed_is_refused() -> None:
    orphan = ExpansionSpec(id="chess-960", name="960", version="1.0.0", game="chess")
    with pytest.raises(PluginError) as info:
        Registry([DicePlugin(), Expansions(orphan)], entry_points=False)
    assert "chess-960" in str(info.value) and "'chess'" in str(info.value)


def test_unknown_game_and_expansion_ids_list_what_is_installed() -> None:
    registry = Registry([DicePlugin()], entry_points=False)
    with pytest.raises(UnknownGame, match="dice"):
        registry.game("chess")
    with pytest.raises(UnknownGame, match="'nope'"):
        registry.ruleset("dice", ["nope"])


# -- combinations ------------------------------------------------------------------------------

DICE_EXPANSIONS = (
    ExpansionSpec(id="dice-a", name="A", version="1.0.0", game="dice", requires=("dice-b",),
                  conflicts=("dice-c",)),
    ExpansionSpec(id="dice-b", name="B", version="1.0.0", game="dice"),
    ExpansionSpec(id="dice-c", name="C", version="1.0.0", game="dice"),
    ExpansionSpec(id="dice-big", name="Big", version="1.0.0", game="dice", min_players=3),
    ExpansionSpec(id="dice-small", name="Small", version="1.0.0", game="dice", max_players=3),
    ExpansionSpec(id="ttt-side", name="Side", version="1.0.0", game="tictactoe"),
)  # fmt: skip


@pytest.fixture(scope="module")
def dice_registry() -> Registry:
    return Registry([DicePlugin(), Expansions(*DICE_EXPANSIONS)])


def test_an_expansion_that_requires_another_is_refused_alone(dice_registry: Registry) -> None:
    with pytest.raises(InvalidOptions) as info:
        dice_registry.ruleset("dice", ["dice-a"])
    assert "dice-a" in str(info.value) and "dice-b" in str(info.value)
    assert dice_registry.ruleset("dice", ["dice-a", "dice-b"]).name == "dice+dice-a+dice-b"


def test_conflicting_expansions_are_refused_together(dice_registry: Registry) -> None:
    with pytest.raises(InvalidOptions) as info:
        dice_registry.ruleset("dice", ["dice-a", "dice-b", "dice-c"])
    assert "conflicts" in str(info.value) and "dice-c" in str(info.value)
    dice_registry.ruleset("dice", ["dice-b", "dice-c"])  # without dice-a they go together


def test_an_expansion_of_another_game_is_refused(dice_registry: Registry) -> None:
    with pytest.raises(InvalidOptions) as info:
        dice_registry.ruleset("dice", ["ttt-side"])
    assert "ttt-side" in str(info.value) and "tictactoe" in str(info.value)


def test_rulesets_are_shared_per_combination_whatever_the_order(dice_registry: Registry) -> None:
    one = dice_registry.ruleset("dice", ["dice-b", "dice-a"])
    assert dice_registry.ruleset("dice", ["dice-a", "dice-b", "dice-a"]) is one
    assert dice_registry.ruleset("dice", ["dice-b"]) is not one
    assert one.versions == {"dice": "1.2.0", "dice-a": "1.0.0", "dice-b": "1.0.0"}


def test_expansions_narrow_the_player_range(dice_registry: Registry) -> None:
    assert dice_registry.ruleset("dice").player_range == (2, 4)
    assert dice_registry.ruleset("dice", ["dice-big"]).player_range == (3, 4)
    assert dice_registry.ruleset("dice", ["dice-small"]).player_range == (2, 3)
    assert dice_registry.ruleset("dice", ["dice-big", "dice-small"]).player_range == (3, 3)
    big = dice_registry.ruleset("dice", ["dice-big"])
    assert big.started(seed=1).players == 3  # the smallest count allowed is the default
    with pytest.raises(InvalidOptions, match="3 to 4 players, not 2"):
        big.started(2)


@pytest.mark.parametrize("players", [0, 1, 5, -2, "2", 2.0, None])
def test_player_counts_outside_the_range_are_refused(dice_registry: Registry, players: Any) -> None:
    ruleset = dice_registry.ruleset("dice")
    if players is None:
        assert ruleset.started(players, seed=1).players == 2
        return
    with pytest.raises(InvalidOptions) as info:
        ruleset.started(players, seed=1)
    assert "2 to 4 players" in str(info.value) and repr(players) in str(info.value)


def test_every_allowed_player_count_starts(dice_registry: Registry) -> None:
    ruleset = dice_registry.ruleset("dice")
    for players in (2, 3, 4):
        started = ruleset.started(players, seed=4)
        assert (started.players, started.game, started.game_version) == (players, "dice", "1.2.0")
        assert Table(ruleset, started).state.players == players


# -- options -----------------------------------------------------------------------------------


class BoardOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    size: Annotated[int, msgspec.Meta(ge=3, le=5)] = 3
    mode: Literal["open", "closed"] = "open"


class LooseOptions(msgspec.Struct, frozen=True):
    depth: int = 1


class ExpansionOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    bonus: int = 0


OPTIONED = GameSpec(**{**tictactoe_plugin.GAME.__dict__, "id": "boards", "options": BoardOptions,
                       "hookspecs": (), "hookimpls": ()})  # fmt: skip
LOOSE = GameSpec(**{**OPTIONED.__dict__, "id": "loose", "options": LooseOptions})
BONUS = ExpansionSpec(id="boards-bonus", name="Bonus", version="1.0.0", game="boards",
                      options=ExpansionOptions)  # fmt: skip
PLAIN = ExpansionSpec(id="boards-plain", name="Plain", version="1.0.0", game="boards")


@pytest.fixture(scope="module")
def options_registry() -> Registry:
    return Registry([Games(OPTIONED, LOOSE), Expansions(BONUS, PLAIN)], entry_points=False)


def test_options_are_validated_and_recorded_with_defaults(options_registry: Registry) -> None:
    ruleset = options_registry.ruleset("boards")
    started = ruleset.started(options={"size": 4}, seed=2)
    assert started.options == {"size": 4, "mode": "open"}
    assert ruleset.config(started).options == BoardOptions(size=4)
    assert ruleset.started(seed=2).options == {"size": 3, "mode": "open"}


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"size": 6}, "size"),
        ({"size": 2}, "size"),
        ({"size": "big"}, "size"),
        ({"mode": "ajar"}, "mode"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_options_are_refused_naming_the_problem(
    options_registry: Registry, options: dict[str, Any], named: str
) -> None:
    with pytest.raises(InvalidOptions) as info:
        options_registry.ruleset("boards").started(options=options, seed=1)
    assert named in str(info.value) and "boards" in str(info.value)


def test_a_misspelled_option_is_refused_even_by_a_lenient_schema(
    options_registry: Registry,
) -> None:
    with pytest.raises(InvalidOptions, match="dpeth"):
        options_registry.ruleset("loose").started(options={"dpeth": 3}, seed=1)


def test_options_of_a_game_without_options_are_refused(options_registry: Registry) -> None:
    registry = Registry([tictactoe_plugin], entry_points=False)
    with pytest.raises(InvalidOptions) as info:
        registry.ruleset("tictactoe").started(options={"size": 4})
    assert "tictactoe" in str(info.value) and "size" in str(info.value)
    assert registry.ruleset("tictactoe").started(options={}, seed=1).options == {}


def test_expansion_options_are_validated_per_expansion(options_registry: Registry) -> None:
    ruleset = options_registry.ruleset("boards", ["boards-bonus", "boards-plain"])
    started = ruleset.started(expansion_options={"boards-bonus": {"bonus": 2}}, seed=1)
    assert {ref.id: ref.options for ref in started.expansions} == {
        "boards-bonus": {"bonus": 2},
        "boards-plain": {},
    }
    assert ruleset.config(started).expansion_options["boards-bonus"] == ExpansionOptions(bonus=2)
    with pytest.raises(InvalidOptions, match="bonus"):
        ruleset.started(expansion_options={"boards-bonus": {"bonus": "x"}})
    with pytest.raises(InvalidOptions, match="boards-plain"):
        ruleset.started(expansion_options={"boards-plain": {"x": 1}})
    with pytest.raises(InvalidOptions, match="not enabled"):
        options_registry.ruleset("boards").started(expansion_options={"boards-bonus": {}})


def test_the_seed_is_recorded_and_random_when_not_given(options_registry: Registry) -> None:
    ruleset = options_registry.ruleset("boards")
    assert ruleset.started(seed=123).seed == 123
    seeds = {ruleset.started().seed for _ in range(5)}
    assert None not in seeds and len(seeds) > 1


# -- versions ----------------------------------------------------------------------------------


def started_with(game_version: str, misere: str | None = None) -> MatchStarted:
    expansions = (ExpansionRef("tictactoe-misere", misere),) if misere else ()
    return MatchStarted(
        game="tictactoe", game_version=game_version, players=2, expansions=expansions, seed=1
    )


@pytest.fixture(scope="module")
def ttt_registry() -> Registry:
    return Registry([tictactoe_plugin, misere_plugin], entry_points=False)


def test_ruleset_of_refuses_another_major_version_of_the_game(ttt_registry: Registry) -> None:
    installed = ttt_registry.game("tictactoe").version
    with pytest.raises(PluginError) as info:
        ttt_registry.ruleset_of(started_with("2.0.0"))
    text = str(info.value)
    assert "tictactoe" in text and "2.0.0" in text and installed in text


def test_ruleset_of_refuses_another_major_version_of_an_expansion(ttt_registry: Registry) -> None:
    with pytest.raises(PluginError) as info:
        ttt_registry.ruleset_of(started_with("1.0.0", misere="3.1.0"))
    text = str(info.value)
    assert "tictactoe-misere" in text and "3.1.0" in text and "1.0.0" in text


@pytest.mark.parametrize("recorded", ["1.0.0", "1.4.0", "1.0.7", "1.9"])
def test_ruleset_of_accepts_a_minor_difference(ttt_registry: Registry, recorded: str) -> None:
    ruleset = ttt_registry.ruleset_of(started_with(recorded, misere=recorded))
    assert ruleset is ttt_registry.ruleset("tictactoe", ["tictactoe-misere"])


def test_zero_versions_compare_by_their_minor(options_registry: Registry) -> None:
    zero = GameSpec(**{**DICE.__dict__, "version": "0.3.1"})
    registry = Registry([Games(zero)], entry_points=False)
    ok = MatchStarted(game="dice", game_version="0.3.9", players=2, options={"rounds": 3}, seed=1)
    assert registry.ruleset_of(ok).game is zero
    for other in ("0.4.0", "0.2.9", "1.3.1"):
        with pytest.raises(PluginError, match=re.escape(other)):
            registry.ruleset_of(msgspec.structs.replace(ok, game_version=other))


def test_a_plugin_reads_an_older_versions_options_through_its_upcast() -> None:
    seen: list[tuple[str, dict[str, Any]]] = []

    def upcast(version: str, options: dict[str, Any]) -> dict[str, Any]:
        seen.append((version, dict(options)))
        return {"rounds": 9, **options} if version.startswith("1.1") else options

    game = GameSpec(**{**DICE.__dict__, "upcast_options": upcast})
    ruleset = Registry([Games(game)], entry_points=False).ruleset("dice")
    old = MatchStarted(game="dice", game_version="1.1.0", players=2, options={}, seed=1)
    assert ruleset.config(old).options.rounds == 9  # absent: the old meaning
    kept = msgspec.structs.replace(old, options={"rounds": 2})
    assert ruleset.config(kept).options.rounds == 2  # recorded: kept as recorded
    now = msgspec.structs.replace(old, game_version=DICE.version)
    assert ruleset.config(now).options.rounds == 3 and len(seen) == 2  # today's: not called
    assert seen[0] == ("1.1.0", {}) and old.options == {}  # the event itself is not changed


def test_ruleset_of_refuses_an_expansion_that_is_not_installed() -> None:
    registry = Registry([tictactoe_plugin], entry_points=False)
    with pytest.raises(UnknownGame, match="tictactoe-misere"):
        registry.ruleset_of(started_with("1.0.0", misere="1.0.0"))


# -- hooks per ruleset -------------------------------------------------------------------------


def test_two_rulesets_of_one_game_call_their_own_hooks(ttt_registry: Registry) -> None:
    plain = ttt_registry.ruleset("tictactoe")
    misere = ttt_registry.ruleset("tictactoe", ["tictactoe-misere"])
    assert [plain.hook.tictactoe_line_winner(seat=s) for s in (0, 1)] == [0, 1]
    assert [misere.hook.tictactoe_line_winner(seat=s) for s in (0, 1)] == [1, 0]
    # and the plain ruleset is unchanged once the misère one exists
    assert plain.hook.tictactoe_line_winner(seat=0) == 0
    assert not plain.pm.is_registered(misere_plugin)
    assert misere.pm.is_registered(misere_plugin)


def test_matches_of_both_rulesets_end_by_their_own_rules(ttt_registry: Registry) -> None:
    outcomes = {}
    for expansions in ((), ("tictactoe-misere",)):
        table = Table.new("tictactoe", expansions=expansions, registry=ttt_registry)
        for i, cell in enumerate([0, 3, 1, 4, 2]):  # X completes the top row
            table.send(i % 2, PlaceMark(cell=cell))
        outcome = table.outcome()
        assert outcome is not None
        outcomes[expansions] = outcome.winners
    assert outcomes == {(): (0,), ("tictactoe-misere",): (1,)}


def test_a_ruleset_only_holds_its_own_types(registry: Registry) -> None:
    tictactoe = registry.ruleset("tictactoe")
    battle = registry.ruleset("toy-battle")
    assert tictactoe.accepts(PlaceMark(cell=0)) and not battle.accepts(PlaceMark(cell=0))
    assert not (tictactoe.command_types & battle.command_types)
    assert MatchStarted in tictactoe.event_types and MatchStarted in battle.event_types


# -- hook documentation ------------------------------------------------------------------------


def core_hooks() -> list[str]:
    pm = pluggy.PluginManager("gamehall")
    pm.add_hookspecs(hookspecs)
    names = sorted(name for name in dir(pm.hook) if name.startswith("gamehall_"))
    assert names == sorted(
        name for name, fn in vars(hookspecs).items()
        if callable(fn) and hasattr(fn, "gamehall_spec")
    )  # fmt: skip
    return names


HOOK_DOCS = ["writing-a-game.md", "writing-an-expansion.md", "architecture.md", "events.md"]


@pytest.mark.parametrize("hook", core_hooks())
def test_every_core_hook_has_a_docstring_with_its_parameters(hook: str) -> None:
    fn = getattr(hookspecs, hook)
    doc = inspect.getdoc(fn)
    assert doc and len(doc.splitlines()[0]) > 10, f"{hook} has no docstring"
    params = list(inspect.signature(fn).parameters)
    for param in params:
        assert re.search(rf"^:param {param}:\s*\S", doc, re.MULTILINE), (
            f"{hook}: no ':param {param}:' line"
        )
    documented = re.findall(r"^:param (\w+):", doc, re.MULTILINE)
    assert set(documented) <= set(params), f"{hook} documents parameters it does not take"


@pytest.mark.parametrize("hook", core_hooks())
def test_every_core_hook_is_named_in_the_docs(hook: str) -> None:
    docs = [ROOT / "docs" / name for name in HOOK_DOCS]
    present = [path for path in docs if path.exists()]
    writing = [p for p in present if p.name.startswith("writing-")]
    if not writing:
        pytest.skip("docs/writing-a-game.md and docs/writing-an-expansion.md are not written yet")
    text = "\n".join(path.read_text() for path in present)
    assert re.search(rf"\b{hook}\b", text), (
        f"{hook} is named in none of {[p.name for p in present]}"
    )


class ShapedOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    corners: tuple[int, ...] = (0, 2)
    weights: dict[int, int] = {}


class TicTacToeTypes:
    @hookimpl
    def gamehall_event_types(self) -> list[type]:
        return list(tictactoe_plugin.GAME.events)

    @hookimpl
    def gamehall_command_types(self) -> list[type]:
        return list(tictactoe_plugin.GAME.commands)


TYPES = TicTacToeTypes()
# Tic-tac-toe under another id, with options it ignores.
SHAPED = GameSpec(**{**tictactoe_plugin.GAME.__dict__, "id": "shaped", "options": ShapedOptions,
                     "hookimpls": (*tictactoe_plugin.GAME.hookimpls, TYPES),
                     "test_options": ({"corners": (6, 8), "weights": {4: 2}},)})  # fmt: skip


def test_options_are_stored_as_a_log_keeps_them_so_replay_sees_the_same() -> None:
    from gamehall.core.conformance import cases, check_playout

    registry = Registry([Games(SHAPED), TYPES], entry_points=False)
    ruleset = registry.ruleset("shaped")
    started = ruleset.started(options={"corners": (6, 8), "weights": {4: 2}}, seed=1)
    assert started.options == {"corners": [6, 8], "weights": {"4": 2}}
    codec = registry.codec
    assert codec.decode_event("gamehall.MatchStarted", 1, codec.encode_event(started), "m", 1) == (
        started
    )
    assert ruleset.config(started).options == ShapedOptions(corners=(6, 8), weights={4: 2})
    (case,) = cases(registry, "shaped")
    check_playout(registry, case, seed=3)  # the codec round-trips the first event too


class LooseValue(msgspec.Struct, frozen=True):
    anything: Any = None


def test_an_untyped_option_is_stored_and_replayed_in_its_logged_form() -> None:
    loose = GameSpec(**{**OPTIONED.__dict__, "id": "loose-value", "options": LooseValue})
    ruleset = Registry([tictactoe_plugin, Games(loose)], entry_points=False).ruleset("loose-value")
    started = ruleset.started(options={"anything": (1, {2: 3})})
    assert started.options == {"anything": [1, {"2": 3}]}
    assert ruleset.config(started).options == LooseValue([1, {"2": 3}])


def _data_plugin(tmp: Path, name: str, content: str, accepted: dict[str, tuple[str, ...]]) -> Any:
    """Return a tic-tac-toe expansion package with a data file, imported from ``tmp``."""
    package = tmp / name
    (package / "data").mkdir(parents=True)
    (package / "data" / "marks.toml").write_text(content)
    (package / "__init__.py").write_text(
        "from gamehall.core import ExpansionSpec, hookimpl\n"
        f"SPEC = ExpansionSpec(id={name!r}, name='Marks', version='1.0.0', game='tictactoe',\n"
        f"                     accepted_data={accepted!r})\n"
        "@hookimpl\n"
        "def gamehall_expansions():\n"
        "    return [SPEC]\n"
    )
    spec = importlib.util.spec_from_file_location(name, package / "__init__.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_match_records_its_component_data_and_refuses_changed_data_naming_the_file(
    tmp_path: Path,
) -> None:
    import gamehall.plugins.tictactoe as tictactoe

    first = _data_plugin(tmp_path / "a", "marks_data", "size = 3\n", {})
    ruleset = Registry([tictactoe, first], entry_points=False).ruleset("tictactoe", ["marks_data"])
    started = ruleset.started(seed=1)
    recorded = started.data["marks_data"]["data/marks.toml"]
    assert len(recorded) == 16 and "tictactoe" not in started.data  # it has no data folder
    changed = _data_plugin(tmp_path / "b", "marks_data", "size = 4\n", {})
    with pytest.raises(PluginError) as refused:
        Registry([tictactoe, changed], entry_points=False).ruleset_of(started)
    assert "data/marks.toml of marks_data 1.0.0 has changed since" in str(refused.value)
    assert f"recorded {recorded}" in str(refused.value)
    accepted = _data_plugin(
        tmp_path / "c", "marks_data", "size = 4\n", {"data/marks.toml": (recorded,)}
    )
    Registry([tictactoe, accepted], entry_points=False).ruleset_of(started)  # the plugin says so
    old_log = msgspec.structs.replace(started, data={})
    Registry([tictactoe, changed], entry_points=False).ruleset_of(old_log)  # old logs replay
    newer = msgspec.structs.replace(started, expansions=(ExpansionRef("marks_data", "1.0.1"),))
    Registry([tictactoe, changed], entry_points=False).ruleset_of(newer)  # another version


def test_match_started_without_data_decodes_as_before(registry: Registry) -> None:
    line = (
        b'{"type":"gamehall.MatchStarted","game":"tictactoe","game_version":"1.0.0",'
        b'"players":2,"options":{},"expansions":[],"seed":7,"forked_from":null,"fork_seq":null}'
    )
    started = registry.codec.event_from_builtins(msgspec.json.decode(line))
    assert isinstance(started, MatchStarted) and started.data == {}
    registry.ruleset_of(started)


def test_a_spec_from_a_package_takes_its_conventional_modules() -> None:
    explicit = tictactoe_plugin.GAME
    spec = GameSpec.from_package(
        tictactoe_plugin.__name__,
        id=explicit.id,
        name=explicit.name,
        version=explicit.version,
        min_players=explicit.min_players,
        max_players=explicit.max_players,
    )
    for field in ("rules", "state", "options", "events", "commands", "presentation"):
        assert getattr(spec, field) == getattr(explicit, field), field
    assert spec.invariants is explicit.invariants
    assert spec.hookspecs == explicit.hookspecs
    assert [type(impl) for impl in spec.hookimpls] == [type(i) for i in explicit.hookimpls]


def test_a_spec_from_a_package_keeps_what_it_is_given() -> None:
    spec = GameSpec.from_package(
        tictactoe_plugin.__name__,
        id="other",
        name="Other",
        version="1.0.0",
        min_players=2,
        max_players=2,
        events=(),
        hookimpls=(),
    )
    assert spec.events == () and spec.hookimpls == ()
    assert spec.rules is tictactoe_plugin.GAME.rules


def test_a_spec_from_a_package_without_rules_is_refused() -> None:
    with pytest.raises(TypeError):
        GameSpec.from_package(misere_plugin.__name__, id="x", name="X", version="1.0.0")


def test_release_reads_a_versions_major_and_minor_numbers() -> None:
    assert release("1.1.0") == (1, 1)
    assert release("2.0") == (2, 0)
    assert release("1.0.0") < (1, 1) <= release("1.10.2")


# -- what a ruleset hides ------------------------------------------------------------------------


def test_a_ruleset_is_public_only_when_its_rules_hide_nothing(registry: Registry) -> None:
    # Public: every seat and spectator sees each event whole, and the answers skip redact.
    assert registry.ruleset("tictactoe").public
    for game in ("gunsen", "river-of-gold", "toy-battle", "kaladan", "ehre-der-samurai"):
        assert not registry.ruleset(game).public, game
    for rules, public in (
        (Dice, True),
        (SecretRolls, False),
        (PrivateRolls, False),
        (OwnRedact, False),
    ):
        made = Registry([DiceWith(rules)], entry_points=False)
        assert made.ruleset("dice").public is public, rules.__name__
