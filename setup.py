"""Map the three source folders onto the one ``gamehall`` import namespace."""

from setuptools import Extension, find_namespace_packages, setup

ROOTS = {"core": "gamehall.core", "plugins": "gamehall.plugins", "adapters": "gamehall.adapters"}

packages: list[str] = []
package_dir: dict[str, str] = {}
for folder, name in ROOTS.items():
    package_dir[name] = folder
    packages.append(name)
    # Namespace packages too: the data and static folders ship as packages of their own.
    found = find_namespace_packages(folder, exclude=("*__pycache__*",))
    packages.extend(f"{name}.{sub}" for sub in found)

# Replay's checksum loop in C: optional, since core/store/base.py has the same loop in Python
# for an install without a C compiler (the build then warns and goes on).
ROWCHECK = Extension("gamehall.core.store._rowcheck", ["core/store/_rowcheck.c"], optional=True)

setup(
    ext_modules=[ROWCHECK],
    packages=packages,
    package_dir=package_dir,
    package_data={"": ["py.typed", "*.pyi", "*.toml", "*.json", "*.txt", "*.js", "*.css", "*.svg"]},
)
