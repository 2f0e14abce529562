"""Optional rules of Skirmish (RULES.md 9.0), one module per rule, each a plugin of its own:

* :mod:`~hexwar_skirmish.rules.cover`: ``skirmish.cover``, Skirmish 9.1 cover behind a hedge or
  wall (``skirmish_fire_modifiers``).
"""
