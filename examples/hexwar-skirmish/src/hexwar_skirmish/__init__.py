"""Skirmish: a tiny infantry game (RULES.md), written as a third-party game system for hexwar.

It is the worked example of hexwar's ``docs/plugin-guide.md`` and has the folder skeleton of
hexwar's built-in systems. Its modules, in rule order:

* :mod:`~hexwar_skirmish.plugin`: the manifest ``PLUGIN`` and the core hook implementations
* :mod:`~hexwar_skirmish.hookspecs`: Skirmish's own hooks and their facade ``SkirmishHooks``
* :mod:`~hexwar_skirmish.tables`: the data files (units 2.0, terrain 4.2-5.3, tables 5.4, 6.1)
* :mod:`~hexwar_skirmish.state`: what a game keeps (status 2.5, initiative 3.1, who acted 3.5)
* :mod:`~hexwar_skirmish.sequence`: 3.0 sequence of play and 3.1 initiative
* :mod:`~hexwar_skirmish.movement`: 4.0 movement (and facing, 2.4)
* :mod:`~hexwar_skirmish.fire`: 5.0 fire, with line of sight (5.2) and the fire procedure
* :mod:`~hexwar_skirmish.rally`: 6.0 rally
* :mod:`~hexwar_skirmish.victory`: 7.0 victory
* :mod:`~hexwar_skirmish.rules`: 9.0 optional rules, one plugin per rule (``skirmish.cover``)
* :mod:`~hexwar_skirmish.ai`: the AI controller
* :mod:`~hexwar_skirmish.cli`: ``hexwar skirmish ...`` table-side commands

Data files are in ``data/`` (map, tables, unit and terrain records), scenarios in ``scenarios/``.
"""

__version__ = "0.2.0"
