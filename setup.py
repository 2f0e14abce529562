"""Maps the top-level folders core/ and plugins/ onto the import names hexwar.core and
hexwar.plugins, and gathers the built-in plugins' entry points from plugins/*/plugins.toml.
Everything else about the distribution lives in pyproject.toml."""

import tomllib
from pathlib import Path

from setuptools import find_packages, setup

PACKAGE_DIRS = {"hexwar.core": "core", "hexwar.plugins": "plugins"}
HERE = Path(__file__).parent

packages = []
for name, folder in PACKAGE_DIRS.items():
    packages.append(name)
    packages.extend(f"{name}.{sub}" for sub in find_packages(str(HERE / folder)))

# plugins/<system>/plugins.toml: [plugins] name = "hexwar.plugins.<system>.module"
plugin_entry_points = []
for listing in sorted((HERE / "plugins").glob("*/plugins.toml")):
    declared = tomllib.loads(listing.read_text(encoding="utf-8")).get("plugins", {})
    plugin_entry_points.extend(f"{name} = {module}" for name, module in sorted(declared.items()))

setup(
    packages=packages,
    package_dir=PACKAGE_DIRS,
    entry_points={
        "console_scripts": ["hexwar = hexwar.core.cli:main"],
        "hexwar.plugins": plugin_entry_points,
    },
)
