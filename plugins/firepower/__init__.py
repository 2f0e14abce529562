"""Firepower (Avalon Hill): the Basic Game (Firepower 1-7) as the hexwar system ``firepower``.

Every counter is one soldier; each Turn the sequence units are drawn blind from a cup, each giving
its side an Impulse Phase of two Impulses. The modules, in rule order:

* ``terrain``: the mapboard's terrain, fence and hedge pictures (Firepower 1.1, Firepower 4.7)
* ``soldiers``: soldier counters and their markers (Firepower 1.2.1, Firepower 4.3-4.7)
* ``tables``: the Basic Game Card as data (Firepower 1.4, Firepower 6.2, Firepower 6.3)
* ``setup``: set-up and preparation for play (Firepower 2)
* ``sequence``: the sequence of play, Mix, the blind draws (Firepower 3, Firepower 5)
* ``state``: the game state, soldiers on the board, marker changes (Firepower 4.4-4.6)
* ``impulses``: the Impulse Phase, speed and status changes, two Impulses (Firepower 6.1)
* ``actions``: Actions, their MF and their effects (Firepower 6.2, Firepower 6.6)
* ``combat``: Combat Actions: fire, hand grenades, suppression, melee (Firepower 6.3-6.5)
* ``los``: line of sight (Firepower 6.3.4)
* ``victory``: victory conditions of the Basic Game Scenario (Firepower 7)
* ``advanced``: the Advanced Game's mode plugin ``firepower.advanced`` (Firepower 8-14), with
  ``squads`` (Firepower 8.5, 9.1, 10.5.2, 11.1, 11.4), ``weapon_chart`` (Firepower 10.7),
  ``advanced_impulses`` (Firepower 9, 11.3, 11.4), ``advanced_actions`` (Firepower 11.2.1) and
  ``advanced_los`` (Firepower 8.2.2, 12.1);
  docs/firepower-advanced.md
* ``rules``: the Optional Rules, one module each, none yet (Firepower 15-27)

and beside them: ``plugin`` (the manifest and the core hooks), ``hookspecs`` (the ``firepower_``
hooks and their facade ``FirepowerHooks``), ``ai`` (the AI), ``cli`` (``hexwar firepower
fire|grenade``), ``explain`` (decisions in words for the terminal), ``words`` (the log's
records in words, ``hexwar_describe_event``), ``present`` (decisions as forms of the web table);
``data/`` (card tables,
weapons, stand-in panels), ``scenarios/`` (the Basic Game Scenario). Design decisions:
``docs/decisions.md`` FPD-1 to FPD-26.
"""
