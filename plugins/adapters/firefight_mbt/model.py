"""The Firefight/MBT model as data: which Firefight numbers an MBT unit uses, and what a Firefight
result means on an MBT unit (docs/cross-system.md; docs/decisions.md CORE-71..CORE-75).

Both conversions are tables in ``data/`` with a source per row (every row ``estimated``: the
rulebooks never compare the two systems) and can be replaced by a table pack of the same schema
(:func:`tables` with ``pack``), like any system's tables.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from hexwar.core.errors import HexwarError
from hexwar.core.tables.tableset import TableSet

__all__ = ["ADAPTER", "DATA", "AdapterError", "firefight_profile", "mbt_effect", "tables"]

ADAPTER = "firefight_mbt"
DATA = Path(__file__).with_name("data")


class AdapterError(HexwarError, LookupError):
    """The adapter has no mapping for what was asked (named, with the adapter and the table)."""


@lru_cache(maxsize=8)
def tables(pack: str | None = None) -> TableSet:
    """The adapter's conversion tables, optionally overlaid with a pack folder."""
    shipped = TableSet.load_dir(DATA)
    return shipped.with_pack(pack) if pack else shipped


def _row(table: str, key: str, value: str, pack: str | None) -> dict[str, object]:
    t = tables(pack)[table]
    try:
        row = t.lookup_row(**{key: value})
    except HexwarError:
        known = ", ".join(str(k) for k in t.key_values(key))
        raise AdapterError(
            f"adapter {ADAPTER!r} has no mapping for {key} {value!r} in table {table!r} "
            f"(it maps: {known}); this interaction is not modelled") from None
    return {k: v.value for k, v in row.items()}


def firefight_profile(mbt_type: str, pack: str | None = None) -> tuple[str, str]:
    """``(Firefight type, side code)`` an MBT unit type (``"T-72M1"`` or ``"mbt:T-72M1"``) fights
    as in a Firefight-host game (table ``mbt_in_firefight``)."""
    name = mbt_type.split(":", 1)[1] if mbt_type.startswith("mbt:") else mbt_type
    row = _row("mbt_in_firefight", "mbt_type", name, pack)
    return str(row["firefight_as"]), str(row["side"])


def mbt_effect(result: str, pack: str | None = None) -> str:
    """What a Firefight combat result means on an MBT unit: ``KO``, ``gun``, ``track`` or
    ``none`` (table ``firefight_result_in_mbt``)."""
    return str(_row("firefight_result_in_mbt", "result", result, pack)["mbt_effect"])
