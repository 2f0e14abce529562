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
* ``advanced``: the Advanced Game's mode plugin ``firepower.advanced`` (Firepower 8-14;
  docs/firepower-advanced.md), and its modules in rule order:

  * ``advanced_terrain``: heights, depths, floors, doors, windows, walls (Firepower 8.2)
  * ``hidden_setup``: the set-up with its secret records, craters, tunnels, mines (Firepower 8.2.5,
    8.4, 8.7, 8.8)
  * ``holding_box``: the Holding Box Cards' numbered boxes (Firepower 8.4, 8.8.1)
  * ``defenses``: foxholes, trenches, wire, bunkers, pillboxes, towers, abatis, blocks, ditches
    (Firepower 8.8)
  * ``organizations``, ``squads``: squads as data, leaders and postures (Firepower 8.5, 9.1-9.2,
    14); ``nations``: the National Equipment Lists (Firepower 8.5, 22.1.11.1.1)
  * ``advanced_impulses``: the Mix and the squads' Impulse Phases (Firepower 9, 11.3, 11.4)
  * ``smoke``: smoke, illumination and Observation Conditions (Firepower 9.3, 12.2, 12.3.7-12.3.8)
  * ``weapon_chart``: the WEAPON CHART (Firepower 10.7); ``crews``, ``weapon_units``: crews,
    carried equipment, weapon units (Firepower 10.1, 11.1.6); ``ammunition``: rounds from the
    organization list (Firepower 8.5, 11.1.12)
  * ``entry``: entering the board later (Firepower 10.2); ``exits``: leaving it (Firepower 10.2)
  * ``cover_sides``: the places around trees, stumps and wells and the sides they cover
    (Firepower 10.3, 10.4); ``loopholes``: loopholes in building walls (Firepower 8.2.4)
  * ``advanced_actions``, ``buildings``, ``climbing``, ``loading``, ``detonate``: the Advanced
    Actions (Firepower 11.1-11.2, 11.1.11, 11.1.12, 11.1.13); ``equipment_options``: the weapon
    unit, rounds and rifle-grenade Actions in the option list; ``height_hexsides``: crossing
    height hexsides (Firepower 11.1.4); ``weather``: snow and mud (Firepower 11.2.2);
    ``free_turns``: the free 60-degree turns (Firepower 11.3.1)
  * ``tunnels``: the attacker in the defender's tunnels (Firepower 11.5)
  * ``advanced_los``: the line of sight by heights (Firepower 8.2.2, 10.5.2, 12.1);
    ``advanced_card``: the Advanced Game Card's charts (Firepower 12); ``advanced_fire``: the fire
    procedures (Firepower 12), with ``concealment`` (Firepower 12.2.4), ``structure_fire``
    (Firepower 12.3.1.2, 12.4.5), ``building_damage`` (Firepower 12.3.4.2.7), ``confined_fire``
    (Firepower 12.4.2, 12.4.3), ``rests`` (Firepower 10.7 item 10, 12.6.2) and
    ``openings_fire`` (Firepower 12.7.3)
  * ``advanced_melee``: melee (Firepower 13)
  * ``scenario_victory``: victory of hexwar's own Advanced scenarios (Firepower 23.6 framing)

* ``rules``: the Optional Rules, one module each, none yet (Firepower 15-27)

and beside them: ``plugin`` (the manifest and the core hooks), ``hookspecs`` (the ``firepower_``
hooks and their facade ``FirepowerHooks``), ``ai`` (the AI), ``cli`` (``hexwar firepower
fire|grenade``), ``explain`` (decisions in words for the terminal), ``words`` (the log's
records in words, ``hexwar_describe_event``), ``present`` (decisions as forms of the web table),
``knowledge`` (what a controller may compute from its side's knowledge, ``view.rules``);
``data/`` (card tables, weapons, stand-in panels), ``scenarios/`` (the Basic Game Scenario and
hexwar's own Advanced scenarios). Design decisions: ``docs/decisions.md`` FPD-*.
"""
