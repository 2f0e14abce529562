"""Firefight (SPI, 1976): modern U.S. and Soviet small-unit tactics. Firefight I (Firefight
1.0-9.0) with the Clarifications, the Addenda and the Errata is the system; Firefight II and III
(Firefight 10.0-29.0) are optional rules, one plugin each, in ``rules/``.

Modules, in rule order:

* ``plugin``: the manifest and the core hook implementations (registrations, set-up, views)
* ``hookspecs``: Firefight's own hooks and their facade ``FirefightHooks``
* ``tables``: the charts and the unit types (Firefight 3.3; stand-ins: docs/decisions.md FFD-1)
* ``state``: the game-wide state, unit types and classes (Firefight 3.3), events naming units
* ``sequence``: the sequence of play and the turn phases (Firefight 4.0)
* ``sighting``: observation, line of sight and defilade (Firefight 5.0)
* ``fire``: fire, the fire procedure as named steps, results (Firefight 6.0)
* ``movement``: movement, transport, stacking and opportunity fire (Firefight 7.0)
* ``indirect``: indirect fire (Firefight 8.0)
* ``setup``: set-up before play: force draws, fire plans, deployment, Dragon and RPG-7
  assignment (Firefight 9.13, 8.1, 6.81, 6.9, Scenarios 7, 9)
* ``victory``: the scenarios' victory conditions (Firefight 9.0, Scenarios 1-9)
* ``addenda``: the map options of the Firefight Addenda
* ``rules``: the optional rules of Firefight II and III (Firefight 10.0-28.0)
* ``ai``: the AI controller
* ``knowledge``: the rules computations a controller may make from its side's view
  (``view.rules``: docs/decisions.md CORE-55)
* ``cli``: the table-side commands (``hexwar firefight fire``)
* ``explain``: decisions in words for the terminal (attacks with their Attack Rating, steps with
  their MP cost)
* ``words``: the log's records in words, with their case numbers (``hexwar_describe_event``)
* ``present``: decisions as forms of the web table (moves with MP costs, attacks with their
  Attack Rating and modifiers, deployment in the zone)
* ``testing``: test helpers (``mini_game``)
"""
