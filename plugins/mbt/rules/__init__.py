"""MBT's optional rules (MBT 17.0-24.0), one module per rule, in rule order, each a plugin module
``hexwar.plugins.mbt.rules.<rule>`` with its own entry point ``mbt.<rule>``, answering MBT's hooks
(:mod:`hexwar.plugins.mbt.hookspecs`) and ``hexwar_sequence_edits``; enabled by a scenario's
``rules`` or ``--option mbt.<rule>``.

* :mod:`~hexwar.plugins.mbt.rules.command_control`: MBT 21.0 command control (needs the Advanced
  Game, ``mbt.advanced``): MBT 21.1 command points and MBT 21.2 radio jamming and landlines; its
  parts :mod:`~hexwar.plugins.mbt.rules.command_control_officers` (MBT 21.1.3 officer transfers,
  the command tree of MBT 12.8.2) and :mod:`~hexwar.plugins.mbt.rules.radio` (MBT 21.3
  multi-player rules: personal commanders, conferences, written radio messages, when the game's
  record splits a side among players).
* :mod:`~hexwar.plugins.mbt.rules.umpired`: MBT 24.0 The Umpired Game, on the core umpire's seat
  (:mod:`hexwar.core.engine.umpire`, docs/umpire.md); ``umpired_ai`` is its sides' AI
  (``--players umpired-ai``).
"""
