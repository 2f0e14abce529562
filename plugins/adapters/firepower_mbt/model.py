"""The Firepower/MBT model as data (docs/cross-system.md; docs/decisions.md CORE-86..CORE-90).

MBT is the host. A guest Firepower squad fights and is fought in MBT's phases with the MBT card
the table ``firepower_in_mbt`` names for its type and side; an MBT leg unit fields the soldiers
``mbt_leg_in_firepower`` names when a town fight is zoomed in to Firepower's scale; the share of
a unit's soldiers lost there means the MBT result ``firepower_losses_in_mbt`` names; and
``town_fight`` holds the fight's set-up numbers. Every row is ``estimated`` (the rulebooks never
compare the systems) and a table pack of the same schema replaces any of them (:func:`tables`).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from hexwar.core.errors import HexwarError
from hexwar.core.tables.tableset import TableSet

__all__ = ["ADAPTER", "DATA", "AdapterError", "fight_param", "leg_soldiers", "loss_effect",
           "mbt_profile", "tables"]

ADAPTER = "firepower_mbt"
DATA = Path(__file__).with_name("data")


class AdapterError(HexwarError, LookupError):
    """The adapter has no mapping for what was asked (named, with the adapter and the table)."""


@lru_cache(maxsize=8)
def tables(pack: str | None = None) -> TableSet:
    """The adapter's conversion tables, optionally overlaid with a pack folder."""
    shipped = TableSet.load_dir(DATA)
    return shipped.with_pack(pack) if pack else shipped


def _row(table: str, pack: str | None, **keys: object) -> dict[str, object]:
    t = tables(pack)[table]
    try:
        row = t.lookup_row(**keys)
    except HexwarError:
        asked = ", ".join(f"{k} {v!r}" for k, v in keys.items())
        known = ", ".join(str(k) for k in t.key_values(next(iter(keys))))
        raise AdapterError(
            f"adapter {ADAPTER!r} has no mapping for {asked} in table {table!r} (it maps: "
            f"{known}); this interaction is not modelled") from None
    return {k: v.value for k, v in row.items()}


def _short(unit_type: str, system: str) -> str:
    return unit_type.split(":", 1)[1] if unit_type.startswith(f"{system}:") else unit_type


def mbt_profile(firepower_type: str, side: str, pack: str | None = None) -> tuple[str, tuple[str, ...]]:
    """``(MBT card, soldiers)`` of a guest Firepower squad (``"firepower:LMG"`` or ``"LMG"``) of
    MBT side ``side`` (table ``firepower_in_mbt``)."""
    row = _row("firepower_in_mbt", pack, firepower_type=_short(firepower_type, "firepower"),
               side=side)
    return str(row["mbt_as"]), tuple(str(row["soldiers"]).split())


def leg_soldiers(mbt_card: str, pack: str | None = None) -> tuple[str, ...]:
    """The Firepower soldier types an MBT leg unit of card ``mbt_card`` fields in a town fight
    (table ``mbt_leg_in_firepower``; a vehicle has no row)."""
    row = _row("mbt_leg_in_firepower", pack, mbt_card=_short(mbt_card, "mbt"))
    return tuple(str(row["soldiers"]).split())


def loss_effect(lost: int, of: int, pack: str | None = None) -> str:
    """What losing ``lost`` of ``of`` soldiers means on the MBT unit: ``none``, ``suppressed`` or
    ``KO`` (table ``firepower_losses_in_mbt``, by whole percent, rounded down)."""
    if of <= 0 or not 0 <= lost <= of:
        raise AdapterError(f"adapter {ADAPTER!r}: {lost} lost of {of} soldiers is not a loss")
    return str(_row("firepower_losses_in_mbt", pack, lost=100 * lost // of)["mbt_effect"])


def fight_param(name: str, pack: str | None = None) -> int:
    """A number of the town fight's set-up (table ``town_fight``)."""
    value = _row("town_fight", pack, param=name)["value"]
    assert isinstance(value, int)
    return value
