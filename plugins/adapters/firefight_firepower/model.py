"""The Firefight/Firepower model as data (docs/cross-system.md; docs/decisions.md CORE-91..CORE-95).

A Firepower squad in a Firefight-host game is one Firefight team: its Firefight type comes from
table ``firepower_squad_in_firefight``; Firefight fire at it inside a Town hex is played at
Firepower scale (``firefight_fire_in_firepower``) and its losses go back out as a Firefight result
(``firepower_losses_in_firefight``); any other Firefight result on it is read in Firepower terms
(``firefight_result_in_firepower``); and ``firepower_fire_in_firefight`` says which targets its
fire is modelled against. Every row is ``estimated`` and a table pack of the same schema replaces
them (:func:`tables` with ``pack``), like any system's tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from hexwar.core.errors import HexwarError
from hexwar.core.tables.tableset import TableSet

__all__ = ["ADAPTER", "DATA", "WEAPON_RANK", "AdapterError", "InsideFire", "best_weapon",
           "fire_modelled", "inside_fire", "loss_result", "profile", "soldier_effect", "tables"]

ADAPTER = "firefight_firepower"
DATA = Path(__file__).with_name("data")

#: the order in which a squad's weapons decide its profile (the first one present wins)
WEAPON_RANK = ("LMG", "RFL", "PST")


class AdapterError(HexwarError, LookupError):
    """The adapter has no mapping for what was asked (named, with the adapter and the table)."""


@lru_cache(maxsize=8)
def tables(pack: str | None = None) -> TableSet:
    """The adapter's conversion tables, optionally overlaid with a pack folder."""
    shipped = TableSet.load_dir(DATA)
    return shipped.with_pack(pack) if pack else shipped


def _row(table: str, keys: dict[str, Any], pack: str | None) -> dict[str, Any]:
    t = tables(pack)[table]
    try:
        row = t.lookup_row(**keys)
    except HexwarError:
        asked = ", ".join(f"{k} {v!r}" for k, v in keys.items())
        raise AdapterError(f"adapter {ADAPTER!r} has no mapping for {asked} in table {table!r}; "
                           "this interaction is not modelled") from None
    return {k: v.value for k, v in row.items()}


def best_weapon(weapons: list[str]) -> str:
    """The weapon that decides a squad's profile: its LMG if it still has one, else rifles,
    else pistols (hand grenades alone make no team: the squad has no fighting weapon)."""
    for w in WEAPON_RANK:
        if w in weapons:
            return w
    raise AdapterError(f"adapter {ADAPTER!r} has no mapping for a squad of {sorted(weapons)} in "
                       "table 'firepower_squad_in_firefight' (it needs an LMG, RFL or PST)")


def profile(side: str, weapons: list[str], pack: str | None = None) -> str:
    """The Firefight type a squad of these Firepower weapons fights as (its Firefight profile)."""
    row = _row("firepower_squad_in_firefight", {"side": side, "best_weapon": best_weapon(weapons)},
               pack)
    return str(row["firefight_as"])


@dataclass(frozen=True)
class InsideFire:
    """The Firepower fire a Firefight result becomes inside a Town hex."""

    bursts: int
    weapon: str
    mode: str
    range: int


def inside_fire(result: str, pack: str | None = None) -> InsideFire:
    row = _row("firefight_fire_in_firepower", {"result": result}, pack)
    return InsideFire(int(row["bursts"]), str(row["weapon"]), str(row["mode"]), int(row["range"]))


def loss_result(lost: int, strength: int, pack: str | None = None) -> str:
    """The Firefight result that ``lost`` of ``strength`` soldiers report out (per cent, rounded
    down, so the bands are whole numbers)."""
    percent = (100 * lost) // strength if strength else 100
    return str(_row("firepower_losses_in_firefight", {"lost_percent": percent}, pack)["result"])


def soldier_effect(result: str, pack: str | None = None) -> str:
    """What a Firefight result not played at Firepower scale means for the squad's soldiers:
    ``suppressed`` or ``eliminated``."""
    return str(_row("firefight_result_in_firepower", {"result": result}, pack)["soldiers"])


def fire_modelled(target_class: str, pack: str | None = None) -> str | None:
    """``None`` when a squad's fire at a Firefight target of this class is modelled, else the
    reason (naming the adapter and the missing mapping)."""
    t = tables(pack)["firepower_fire_in_firefight"]
    try:
        t.lookup_row(target_class=target_class)
    except HexwarError:
        return (f"adapter {ADAPTER!r} has no mapping for target_class {target_class!r} in table "
                "'firepower_fire_in_firefight': a Firepower squad's fire at it is not modelled")
    return None
