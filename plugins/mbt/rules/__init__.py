"""MBT's optional rules (MBT 17.0-24.0), one module per rule, in rule order.

Each is a plugin module ``hexwar.plugins.mbt.rules.<rule>`` with its own entry point, answering
MBT's hooks (:mod:`hexwar.plugins.mbt.hookspecs`) and ``hexwar_sequence_edits``.

* :mod:`~hexwar.plugins.mbt.rules.command_control`: MBT 21.1 command points (needs the Advanced
  Game, ``mbt.advanced``).
"""
