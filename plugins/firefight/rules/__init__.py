"""The Firefight II and III optional rules, one plugin module each (entry point
``firefight.<module>``), enabled by a scenario's ``rules`` or ``--option firefight.<module>``.

Table of contents, in rule order:

* ``observation``: Firefight 11.0 Modified observation rules
* ``dummies``: Firefight 12.0 Dummies (needs ``observation``)
* ``height``: Firefight 13.0 Effect of height and contour on observation
* ``smoke``: Firefight 14.0 Smoke
* ``overwatch``: Firefight 15.0 Overwatch fire
* ``mounted_combat``: Firefight 16.0 Mounted combat
* ``short_halt``: Firefight 17.0 Short Halt attack / fire on move
* ``mines``: Firefight 18.0 Mines
* ``suppressive_fire``: Firefight 19.0 Suppressive fire
* ``dedicated_battery``: Firefight 21.0 Dedicated battery
* ``scatter``: Firefight 22.0 Indirect fire scatter
* ``improved_positions``: Firefight 23.0 Improved positions
* ``small_arms``: Firefight 24.0 Small arms fire versus armored vehicles
* ``artillery_mines``: Firefight 25.0 Artillery delivered mines (needs ``mines``)
* ``clgp``: Firefight 26.0 Cannon-launched guided projectile
* ``future_afvs``: Firefight 27.0 Future AFVs
* ``overrun``: Firefight 28.0 Overrun

``_common`` holds what the rules share; ``data/`` their tables.
"""
