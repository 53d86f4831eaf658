"""Map the three source folders onto the one ``gamehall`` import namespace."""

from setuptools import find_packages, setup

ROOTS = {"core": "gamehall.core", "plugins": "gamehall.plugins", "adapters": "gamehall.adapters"}

packages: list[str] = []
package_dir: dict[str, str] = {}
for folder, name in ROOTS.items():
    package_dir[name] = folder
    packages.append(name)
    packages.extend(f"{name}.{sub}" for sub in find_packages(folder))

setup(
    packages=packages,
    package_dir=package_dir,
    package_data={
        "": ["py.typed", "data/*.toml", "data/*.json", "data/*.txt"],
        "gamehall.adapters.http.web": ["static/*.js", "static/*.css", "static/*.svg"],
    },
)
