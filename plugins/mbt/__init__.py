"""MBT (Avalon Hill): modern armoured combat at 100 metres a hex, one counter per vehicle.

hexwar plays the Basic Game (MBT 1.0-9.0) and its Basic Game Scenario, the Advanced Game (MBT
10.0-16.0) and Scenario One, and prices organizations from the TO&E. The modules, in rule order:

* :mod:`~hexwar.plugins.mbt.plugin`: the manifest and the core hook implementations (thin);
* :mod:`~hexwar.plugins.mbt.hookspecs`: MBT's own ``mbt_`` hooks and their facade ``MbtHooks``;
* :mod:`~hexwar.plugins.mbt.terrain`: MBT 1.1, 2.1 the mapboard, its terrain and the Basic line of
  sight of MBT 6.1.4;
* :mod:`~hexwar.plugins.mbt.cards`: MBT 1.3 the data cards (``data/cards``);
* :mod:`~hexwar.plugins.mbt.tables`: MBT 1.4 the Game Card charts (``data/tables``);
* :mod:`~hexwar.plugins.mbt.setup`: MBT 2.0 Basic Game set up;
* :mod:`~hexwar.plugins.mbt.sequence`: MBT 3.0 the sequence of play;
* :mod:`~hexwar.plugins.mbt.state`: unit status (MBT 1.2.2, 4.5, 6.2, 7.4.7) and the per-game context;
* :mod:`~hexwar.plugins.mbt.initiative`: MBT 5.0 initiative;
* :mod:`~hexwar.plugins.mbt.sighting`: MBT 6.1 the Sighting Step;
* :mod:`~hexwar.plugins.mbt.orders`: MBT 6.2 the Mark Orders Step;
* :mod:`~hexwar.plugins.mbt.fire`: MBT 7.1-7.3 firing, and applying the results of MBT 7.4;
* :mod:`~hexwar.plugins.mbt.ap_fire`: MBT 7.4 the firing procedure (AP point effect fire);
* :mod:`~hexwar.plugins.mbt.overwatch`: MBT 7.5 overwatch fire;
* :mod:`~hexwar.plugins.mbt.movement`: MBT 8.0 the Movement Step and MBT 8.8;
* :mod:`~hexwar.plugins.mbt.movement_costs`: MBT 8.1-8.6 movement costs and the least-cost search;
* :mod:`~hexwar.plugins.mbt.adjustment`: MBT 9.1-9.4.1 the Adjustment Phase;
* :mod:`~hexwar.plugins.mbt.victory`: MBT 9.4.2-9.4.3 victory;
* the Advanced Game (MBT 10.0-16.0, plugin ``mbt.advanced``, docs/mbt-advanced.md):
  :mod:`~hexwar.plugins.mbt.advanced` (manifest and hooks), the Advanced sequence (MBT 11.0) in
  :mod:`~hexwar.plugins.mbt.sequence`, :mod:`~hexwar.plugins.mbt.advanced_tables` (its charts),
  :mod:`~hexwar.plugins.mbt.advanced_sighting` (MBT 12.1, 13.1-13.2),
  :mod:`~hexwar.plugins.mbt.record_sheet` (MBT 10.3 record sheets),
  :mod:`~hexwar.plugins.mbt.suppression` (MBT 12.3), :mod:`~hexwar.plugins.mbt.markers`
  (MBT 12.4 terrain markers, 15.4.5), :mod:`~hexwar.plugins.mbt.marker_setup` (MBT 10.0, 12.4
  markers placed at set-up, with :mod:`~hexwar.plugins.mbt.marker_ai` the AI's placement),
  :mod:`~hexwar.plugins.mbt.smoke` (MBT 12.6),
  :mod:`~hexwar.plugins.mbt.grade` (MBT 12.7-12.8), :mod:`~hexwar.plugins.mbt.advanced_orders`
  (MBT 13.3), :mod:`~hexwar.plugins.mbt.doctrine` (MBT 13.4 Soviet doctrine),
  :mod:`~hexwar.plugins.mbt.close_assault` (MBT 11.3.1, 14.5-14.6),
  :mod:`~hexwar.plugins.mbt.machineguns` (MBT 14.1.2 vehicle machineguns, 14.3.3.4.2 their
  loss), :mod:`~hexwar.plugins.mbt.advanced_fire` (MBT 14.2.2, 14.3, 14.8),
  :mod:`~hexwar.plugins.mbt.gp_fire` (MBT 14.4), :mod:`~hexwar.plugins.mbt.gp_terrain`
  (MBT 12.4.2, 14.4.3.3 GP fire at terrain), :mod:`~hexwar.plugins.mbt.overrun` (MBT 14.7),
  :mod:`~hexwar.plugins.mbt.advanced_movement` (MBT 11.4, 15.0),
  :mod:`~hexwar.plugins.mbt.transport` (MBT 15.2-15.3, 15.5),
  :mod:`~hexwar.plugins.mbt.buildings` (MBT 15.4),
  :mod:`~hexwar.plugins.mbt.advanced_adjustment` (MBT 16.0),
  :mod:`~hexwar.plugins.mbt.variants` (Scenario One's terrain variants);
* :mod:`~hexwar.plugins.mbt.rules`: the optional rules (MBT 17.0-24.0): MBT 21.0 command
  control, MBT 24.0 the Umpired Game;
* :mod:`~hexwar.plugins.mbt.toe`: the TO&E and the points of "Doing Your Own Scenarios" B.3;
* :mod:`~hexwar.plugins.mbt.forces`: a scenario's forces as TO&E organizations (Scenario Format C);
* :mod:`~hexwar.plugins.mbt.ai`: the AI, and :mod:`~hexwar.plugins.mbt.knowledge`, what a
  controller may compute from its side's knowledge (``view.rules``);
* :mod:`~hexwar.plugins.mbt.cli`: the table-side commands (``hexwar mbt fire``, ``cards``,
  ``points``, ``orgs``, ``record``), with :mod:`~hexwar.plugins.mbt.cli_advanced` (``fire --ammo GP | CA |
  H2H``) and :mod:`~hexwar.plugins.mbt.forces_cli` (``hexwar mbt forces``);
* :mod:`~hexwar.plugins.mbt.explain`: decisions in words for the terminal;
* :mod:`~hexwar.plugins.mbt.words`: the log's records in words (``hexwar_describe_event``);
* :mod:`~hexwar.plugins.mbt.present`: decisions as forms of the web table (``hexwar serve``).

Data files are in ``data/`` (``tables``, ``cards``, ``panels``, ``toe``), scenarios in
``scenarios/``; the generators of the stand-in data are in ``tools/mbt`` of the repository.
Design decisions are ``docs/decisions.md`` MBTD-1 and following (README.md lists them).
"""
