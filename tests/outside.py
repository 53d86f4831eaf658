"""A fresh virtual environment with gamehall and an outside plugin package installed.

``OutsideEnv.build`` makes the venv with ``python -m venv`` (never the one running the suite),
installs gamehall from a clean copy of this source tree (with its test extras) and the plugin
package of ``tests/outside_plugin`` (or any other folder), and runs commands with that
interpreter. Tests that need it use the ``outside_env`` fixture (see ``tests/conftest.py``);
installing reaches the configured package index for gamehall's dependencies.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUTSIDE_PLUGIN = Path(__file__).resolve().parent / "outside_plugin"
SOURCE = ("core", "plugins", "adapters", "setup.py", "pyproject.toml", "README.md")
SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build", "dist")


@dataclass
class OutsideEnv:
    """A venv of its own, with gamehall and outside plugin packages installed."""

    root: Path

    @property
    def python(self) -> Path:
        """Return the venv's interpreter."""
        return self.root / "venv" / "bin" / "python"

    @property
    def env(self) -> dict[str, str]:
        """Return an environment that runs the venv's commands and nothing of this process."""
        keep = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
        bin_dir = str(self.python.parent)
        return {**keep, "PATH": f"{bin_dir}{os.pathsep}{keep.get('PATH', '/usr/bin:/bin')}"}

    @classmethod
    def build(cls, root: Path, *plugins: Path, extras: str = "test") -> OutsideEnv:
        """Make the venv and install gamehall (from a copy of this tree) and the plugins."""
        made = cls(root)
        subprocess.run([sys.executable, "-m", "venv", str(root / "venv")], check=True)
        source = root / "gamehall-src"
        source.mkdir()
        for name in SOURCE:
            path = ROOT / name
            if path.is_dir():
                shutil.copytree(path, source / name, ignore=SKIP)
            else:
                shutil.copy2(path, source / name)
        packages = []
        for plugin in plugins or (OUTSIDE_PLUGIN,):
            copy = root / plugin.name
            shutil.copytree(plugin, copy, ignore=SKIP)  # builds write beside the sources
            packages.append(str(copy))
        target = f"{source}[{extras}]" if extras else str(source)
        made.run(
            "-m", "pip", "install", "--quiet", "--disable-pip-version-check", target, *packages
        )
        return made

    def run(
        self, *args: str, cwd: Path | None = None, timeout: float = 900, check: bool = True
    ) -> subprocess.CompletedProcess[str]:
        """Run the venv's Python with ``args``; fail with its output when ``check`` and it fails."""
        done = subprocess.run(
            [str(self.python), *args],
            cwd=cwd or self.root, env=self.env, capture_output=True, text=True, timeout=timeout,
            check=False,
        )  # fmt: skip
        if check and done.returncode != 0:
            raise AssertionError(
                f"$ python {' '.join(args)} exited {done.returncode}\n"
                f"{done.stdout[-6000:]}\n{done.stderr[-4000:]}"
            )
        return done
