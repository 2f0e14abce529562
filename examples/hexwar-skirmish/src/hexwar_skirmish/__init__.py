"""Skirmish: a tiny game system for hexwar, and the example of a third-party plugin package.

The system plugin is :mod:`hexwar_skirmish.plugin`; the optional rule "cover" is
:mod:`hexwar_skirmish.rules.cover`. Both are found by hexwar through entry points.
"""

__version__ = "0.1.0"
