"""The MBT TO&E (the rulebook's TO&E section, parts 1-4 for the USA, the FRG and the USSR) and the
point rules of its "Doing Your Own Scenarios" section; ``MBT B.3`` cites section B.3 there.

* :mod:`~hexwar.plugins.mbt.toe.points`: the MBT B.3 multipliers and rounding;
* :mod:`~hexwar.plugins.mbt.toe.catalog`: the TO&E data (``data/toe``), names, prices;
* :mod:`~hexwar.plugins.mbt.toe.audit`: every printed price recomputed;
* :mod:`~hexwar.plugins.mbt.toe.report`: the breakdowns ``hexwar mbt points`` prints.

``docs/mbt-toe.md`` describes the data and the audit.
"""
