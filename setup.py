"""Maps the top-level folders core/ and plugins/ onto the import names hexwar.core and
hexwar.plugins. Everything else about the distribution lives in pyproject.toml."""

from setuptools import find_packages, setup

PACKAGE_DIRS = {"hexwar.core": "core", "hexwar.plugins": "plugins"}

packages = []
for name, folder in PACKAGE_DIRS.items():
    packages.append(name)
    packages.extend(f"{name}.{sub}" for sub in find_packages(folder))

setup(packages=packages, package_dir=PACKAGE_DIRS)
