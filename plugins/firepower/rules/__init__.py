"""Firepower Optional Rules (Firepower 15-27), one plugin module each, in rule order.

None is implemented yet: each needs the Advanced Game (Firepower 8-14) and numbers from cards the
rulebook does not reproduce. A rule comes as ``rules/<name>.py`` with its own ``PLUGIN`` manifest
(kind ``rule``, named ``firepower.<name>``) and implements the system's hooks
(:mod:`hexwar.plugins.firepower.hookspecs`); its entry point is
``hexwar.plugins.firepower.rules.<name>``. The table of contents:

* Firepower 15 Movement Options (jumping, equipment point movement reductions): none yet
* Firepower 16 Combat Options (grenade return throw, adjusted fire, increased fire...): none yet
* Firepower 17 Multi-Player Rules: none yet
* Firepower 18 The Umpired Game, Sighting Rules: none yet
* Firepower 19 Vehicle Options: none yet
* Firepower 20 Remote Observation and Communication: none yet
* Firepower 21 Fires: none yet
* Firepower 22 Individual Personal Characteristics: none yet
* Firepower 23 Wounds and Cover: none yet
* Firepower 24 Morale: none yet
* Firepower 25 Prisoners: none yet
* Firepower 26 The Point Selection of Forces: none yet
* Firepower 27 Nuclear, Biological, and Chemical Protection: none yet
"""
