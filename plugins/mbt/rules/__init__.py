"""MBT's optional rules (MBT 17.0-24.0), one module per rule, in rule order.

No optional rules are implemented yet; 17-24 are listed here as they arrive, each as a plugin
module ``hexwar.plugins.mbt.rules.<rule>`` with its own entry point, answering MBT's hooks
(:mod:`hexwar.plugins.mbt.hookspecs`) and ``hexwar_sequence_edits``.

* MBT 17.0-24.0: none yet.
"""
