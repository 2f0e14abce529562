"""House rules for hexwar's built-in game systems: fog.

These are **house rules**: they are in no rulebook. Each is an optional rule of one system, a
plugin of its own, and changes the game only through that system's own fire hook:

* :mod:`~hexwar_house_rules.firefight_fog`: ``firefight.fog``, -2 Attack Rating beyond 20 hexes
  (``firefight_fire_modifiers``);
* :mod:`~hexwar_house_rules.mbt_fog`: ``mbt.fog``, -5 AP point effect modifier beyond 10 hexes
  (``mbt_ap_modifiers``);
* :mod:`~hexwar_house_rules.firepower_fog`: ``firepower.fog``, +2 to the fire roll beyond 20
  hexes (``firepower_fire_modifiers``).

The distances are about a kilometre in Firefight (50 m hexes) and MBT (100 m hexes), and a hundred
yards in Firepower, whose fights happen at a few dozen yards. Enable one with ``--option`` (for
example ``hexwar play firefight:scenario-2 --option firefight.fog``) or in a scenario's ``rules``.
"""

__version__ = "0.1.0"
