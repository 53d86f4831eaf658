"""The built wheel holds every package and data file under ``gamehall/`` and the entry points.

The wheel is built from a copy of the source tree (so the working tree gets no ``build/``) with
whichever of these works here: pip without build isolation (when ``wheel`` and a recent
setuptools are installed), pip with isolation, or ``python -m build``. Isolation fetches the
build requirements from the configured package index.
"""

from __future__ import annotations

import configparser
import importlib.util
import shutil
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = {"core": "gamehall/core", "plugins": "gamehall/plugins", "adapters": "gamehall/adapters"}
SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build", "dist")
OFFLINE = (
    "No matching distribution",
    "Could not find a version",
    "connection",
    "Network is unreachable",
)


def source_files(pattern: str) -> list[Path]:
    out = []
    for folder in FOLDERS:
        out += [p for p in (ROOT / folder).rglob(pattern) if "__pycache__" not in p.parts]
    return sorted(out)


def in_wheel(path: Path) -> str:
    rel = path.relative_to(ROOT)
    return "/".join([FOLDERS[rel.parts[0]], *rel.parts[1:]])


def build_commands(src: Path, out: Path) -> list[list[str]]:
    """Return the ways to build a wheel of ``src`` into ``out``, the most local first."""
    commands = []
    setuptools_ok = False
    if importlib.util.find_spec("setuptools") is not None:
        import setuptools

        setuptools_ok = int(setuptools.__version__.split(".")[0]) >= 69
    pip = [sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "-w", str(out)]
    if setuptools_ok and importlib.util.find_spec("wheel") is not None:
        commands.append([*pip, "--no-build-isolation"])
    commands.append(pip)
    if importlib.util.find_spec("build") is not None:
        commands.append([sys.executable, "-m", "build", "--wheel", "-o", str(out), str(src)])
    return commands


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[zipfile.ZipFile]:
    base = tmp_path_factory.mktemp("wheel")
    src = base / "src"
    src.mkdir()
    for folder in FOLDERS:
        shutil.copytree(ROOT / folder, src / folder, ignore=SKIP)
    for name in ("setup.py", "pyproject.toml", "README.md", "LICENSE"):
        if (ROOT / name).exists():
            shutil.copy2(ROOT / name, src / name)
    failures = []
    for n in range(len(build_commands(src, base))):
        out = base / f"out{n}"
        command = build_commands(src, out)[n]
        done = subprocess.run(
            command, cwd=src, capture_output=True, text=True, timeout=300, check=False
        )
        wheels = sorted(out.glob("gamehall-*.whl"))
        if done.returncode == 0 and wheels:
            with zipfile.ZipFile(wheels[0]) as archive:
                assert archive.testzip() is None
                yield archive
            return
        failures.append(f"$ {' '.join(command[1:])}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    text = "\n\n".join(failures)
    if all(any(mark in failure for mark in OFFLINE) for failure in failures):
        pytest.skip(f"no way to build a wheel here (no index for the build requirements):\n{text}")
    pytest.fail(f"the wheel does not build:\n{text}")


def names(wheel: zipfile.ZipFile) -> set[str]:
    return set(wheel.namelist())


def dist_info(wheel: zipfile.ZipFile, name: str) -> str:
    (path,) = [
        n for n in wheel.namelist() if n.endswith(f".dist-info/{name}") and n.count("/") == 1
    ]
    return wheel.read(path).decode()


def test_every_package_is_in_the_wheel_under_gamehall(wheel: zipfile.ZipFile) -> None:
    packages = source_files("__init__.py")
    assert len(packages) > 10
    missing = [in_wheel(p) for p in packages if in_wheel(p) not in names(wheel)]
    assert not missing, f"packages missing from the wheel: {missing}"


def test_every_module_is_in_the_wheel(wheel: zipfile.ZipFile) -> None:
    modules = source_files("*.py")
    missing = [in_wheel(p) for p in modules if in_wheel(p) not in names(wheel)]
    assert not missing, f"modules missing from the wheel: {missing}"


def test_every_data_file_is_in_the_wheel(wheel: zipfile.ZipFile) -> None:
    data = [p for p in source_files("*") if p.is_file() and "data" in p.relative_to(ROOT).parts]
    assert any(p.match("plugins/*/data/*") for p in data)
    missing = [in_wheel(p) for p in data if in_wheel(p) not in names(wheel)]
    assert not missing, f"data files missing from the wheel: {missing}"
    for path in data:  # and byte for byte
        assert wheel.read(in_wheel(path)) == path.read_bytes(), path


def test_the_web_page_assets_are_in_the_wheel(wheel: zipfile.ZipFile) -> None:
    assets = sorted((ROOT / "adapters" / "http" / "web" / "static").iterdir())
    assert {p.name for p in assets} >= {"gamehall.js", "gamehall.css", "favicon.svg"}
    for path in assets:  # served by gamehall itself, byte for byte what the source holds
        assert wheel.read(in_wheel(path)) == path.read_bytes(), path


def test_nothing_but_gamehall_is_installed(wheel: zipfile.ZipFile) -> None:
    tops = {name.split("/")[0] for name in names(wheel)}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"gamehall"}
    assert not [n for n in names(wheel) if "__pycache__" in n or n.endswith(".pyc")]
    assert not [n for n in names(wheel) if n.startswith("gamehall/tests")]


def test_entry_points_list_every_builtin_plugin_and_the_console_script(
    wheel: zipfile.ZipFile,
) -> None:
    parser = configparser.ConfigParser()
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(dist_info(wheel, "entry_points.txt"))
    plugins = dict(parser["gamehall"])
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"][
        "gamehall"
    ]
    assert plugins == declared
    packages = {p.parent.name for p in (ROOT / "plugins").glob("*/__init__.py")}
    assert set(plugins.values()) == {f"gamehall.plugins.{p}" for p in packages}
    for target in plugins.values():
        assert f"{target.replace('.', '/')}/__init__.py" in names(wheel)
    assert dict(parser["console_scripts"]) == {"gamehall": "gamehall.adapters.launch:main"}
    assert "gamehall/adapters/launch.py" in names(wheel)


def test_the_unpacked_wheel_loads_every_plugin_from_itself(
    wheel: zipfile.ZipFile, tmp_path: Path
) -> None:
    wheel.extractall(tmp_path / "site")
    code = (
        "import gamehall.core, gamehall.adapters.cli as cli\n"
        "from gamehall.core import Registry, Table, RandomBot\n"
        "r = Registry(distributions=['gamehall'])\n"
        "print(gamehall.core.__file__)\n"
        "for key in sorted([*r.games, *r.expansions]): print(key, r.owner(key).__file__)\n"
        "for game in r.games:\n"
        "    Table.new(game, registry=r, seed=1).play(RandomBot(1), max_commands=50)\n"
        "assert callable(cli.main)\n"
    )
    env = {"PYTHONPATH": str(tmp_path / "site"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-c", code],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    site = str(tmp_path / "site")
    lines = done.stdout.splitlines()
    assert lines[0].startswith(site)
    for line in lines[1:]:
        key, path = line.split(" ", 1)
        assert path.startswith(site), f"{key} was loaded from {path}, not from the wheel"
    assert len(lines) - 1 == len(list((ROOT / "plugins").glob("*/__init__.py")))


# A program outside gamehall, type-checked against the installed wheel: it passes only when
# the wheel's packages carry py.typed, and the second one must fail, so the types are real.
TYPED_PROGRAM = """\
from gamehall.core import RandomBot, Table, default_registry
from gamehall.core.hall import Hall
from gamehall.core.store import MemoryStore


async def play() -> int:
    registry = default_registry()
    async with Hall(MemoryStore(registry.codec), registry) as hall:
        match: str = await hall.create("tictactoe", seed=7)
        ack = await hall.send(match, 0, {"type": "tictactoe.PlaceMark", "cell": 4}, command_id="c")
        return ack.last_seq


def playout() -> None:
    Table.new("tictactoe", seed=1).play(RandomBot(1), max_commands=20)
"""
MISTYPED_PROGRAM = """\
from gamehall.core import Table

table: int = Table.new("tictactoe", seed=1)
"""


@pytest.fixture(scope="module")
def bare_venv(wheel: zipfile.ZipFile, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the wheel installed without any extra."""
    base = tmp_path_factory.mktemp("bare")
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    assert wheel.filename is not None
    done = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install",
         "--quiet", "--disable-pip-version-check", wheel.filename],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        if any(mark in done.stderr for mark in OFFLINE):
            pytest.skip(f"the wheel's requirements cannot be fetched here: {done.stderr[-500:]}")
        pytest.fail(f"the wheel does not install:\n{done.stderr[-3000:]}")
    return venv


def in_venv(venv: Path, args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {"PATH": f"{venv / 'bin'}:/usr/bin:/bin", "HOME": str(cwd)}
    return subprocess.run(
        args, cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False
    )


def test_the_core_installs_without_the_server_and_runs_the_embedding_example(
    bare_venv: Path, tmp_path: Path
) -> None:
    python = str(bare_venv / "bin" / "python")
    for package in ("litestar", "uvicorn", "psycopg", "rich"):
        done = in_venv(bare_venv, [python, "-c", f"import {package}"], tmp_path)
        assert done.returncode != 0, f"{package} came with the bare install"
    import re

    readme = (ROOT / "README.md").read_text()
    example = re.findall(r"```python\n(.*?)```", readme, re.S)[0]
    done = in_venv(bare_venv, [python, "-c", example], tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("2 ") and "O to move" in done.stdout
    code = (
        "from gamehall.core import RandomBot, Table, default_registry\n"
        "for game in default_registry().games:\n"
        "    Table.new(game, seed=3).play(RandomBot(3), max_commands=40)\n"
        "print('played')\n"
    )
    done = in_venv(bare_venv, [python, "-c", code], tmp_path)
    assert done.returncode == 0 and done.stdout == "played\n", done.stderr


def test_a_command_whose_extra_is_missing_says_which_to_install(
    bare_venv: Path, tmp_path: Path
) -> None:
    done = in_venv(bare_venv, [str(bare_venv / "bin" / "gamehall"), "serve"], tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "error: this command needs litestar, which comes with the 'http' extra: "
        "pip install 'gamehall[http]'"
    ), done.stderr
    assert "Traceback" not in done.stderr
    done = in_venv(bare_venv, [str(bare_venv / "bin" / "gamehall"), "games"], tmp_path)
    assert done.returncode == 0 and "tictactoe" in done.stdout, done.stderr
    # Without the terminal extra the file and match commands work in plain text; the board
    # in the terminal says which extra draws it.
    gamehall = str(bare_venv / "bin" / "gamehall")
    done = in_venv(bare_venv, [gamehall, "simulate", "tictactoe", "--games", "5"], tmp_path)
    assert done.returncode == 0 and "tictactoe" in done.stdout, done.stderr
    done = in_venv(bare_venv, [gamehall, "demo", "--db", "demo.db"], tmp_path)
    assert done.returncode == 0, done.stderr
    done = in_venv(bare_venv, [gamehall, "matches", "--db", "demo.db"], tmp_path)
    assert done.returncode == 0 and done.stdout.strip(), done.stderr
    done = in_venv(bare_venv, [gamehall, "play", "tictactoe"], tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip() == (
        "error: this command needs rich, which comes with the 'terminal' extra: "
        "pip install 'gamehall[terminal]'"
    ), done.stderr


def test_an_outside_program_type_checks_against_the_installed_wheel(
    bare_venv: Path, tmp_path: Path
) -> None:
    pytest.importorskip("mypy", reason="mypy comes with the test extras")
    (tmp_path / "good.py").write_text(TYPED_PROGRAM)
    (tmp_path / "bad.py").write_text(MISTYPED_PROGRAM)
    mypy = [sys.executable, "-m", "mypy", "--strict", "--no-incremental",
            "--python-executable", str(bare_venv / "bin" / "python")]  # fmt: skip
    done = subprocess.run(
        [*mypy, "good.py"], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout[-3000:]
    done = subprocess.run(
        [*mypy, "bad.py"], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 1, done.stdout[-3000:]
    assert 'Incompatible types in assignment (expression has type "Table"' in done.stdout


def test_each_package_of_the_namespace_ships_its_type_marker(wheel: zipfile.ZipFile) -> None:
    for folder in FOLDERS.values():
        assert f"{folder}/py.typed" in names(wheel), folder
    assert any(n.endswith(".dist-info/licenses/LICENSE") or n.endswith(".dist-info/LICENSE")
               for n in names(wheel))  # fmt: skip
