"""Map the three source folders onto the one ``gamehall`` import namespace."""

from setuptools import find_namespace_packages, setup

ROOTS = {"core": "gamehall.core", "plugins": "gamehall.plugins", "adapters": "gamehall.adapters"}

packages: list[str] = []
package_dir: dict[str, str] = {}
for folder, name in ROOTS.items():
    package_dir[name] = folder
    packages.append(name)
    # Namespace packages too: the data and static folders ship as packages of their own.
    found = find_namespace_packages(folder, exclude=("*__pycache__*",))
    packages.extend(f"{name}.{sub}" for sub in found)

setup(
    packages=packages,
    package_dir=package_dir,
    package_data={"": ["py.typed", "*.toml", "*.json", "*.txt", "*.js", "*.css", "*.svg"]},
)
