"""Only the optional C line-of-sight query (core/_losc.c, decision CORE-123): every other part of
the distribution is declared in pyproject.toml. ``optional=True``: without a C compiler the
install still succeeds and the pure-Python path of core/losgrid.py answers."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("hexwar.core._losc", ["core/_losc.c"], optional=True)])
