"""Ammunition carried in the Advanced Game (Firepower 8.5, Firepower 11.1.6, Firepower 11.1.12).

Unlike the Basic Game, a soldier carries only the rounds his organization list gives him, except
"L" ammunition, which is always unlimited (Firepower 8.5). The rounds are equipment items named
after the WEAPON CHART row and the ammunition type: ``GLR2AMO-G`` is a round of "G" for the GLR2
(the text's "GLR2AMO", Firepower 26.1, with the type the list must fix, Firepower 8.5), listed
like any item: ``equipment = { GLR2AMO-G = 6, GLR2AMO-M = 2 }``.

* Counted stock (docs/decisions.md FPD-88): a soldier whose state lists his equipment (the
  organization list of Firepower 8.5) has exactly the rounds it lists, none of a type it does not
  list; a soldier without an equipment list (a scenario written before the lists, as the Basic
  grenades of FPD-57) has an unlimited stock.
* Drawn by fire: each shot of a non-L type at a hex draws one round, from the firer's own stock
  first, then from his crew's (crewmen stacked with him carry rounds for the weapon they crew:
  Firepower 10.1; FPD-88); the fire is refused when none is left (:func:`rounds_for`).
* Loading (Firepower 11.1.12): a weapon's rounds include those loaded in it; a load note needs the
  rounds it loads in the stock (a whole group for the MPL13 and GLR1, whose stock must be a
  whole number of groups: :func:`stock_problems`).
* Sharing: rounds of one row and type are one item for acquiring and discarding (Firepower
  11.1.6: an Action per item, any number of rounds of it; FPD-88): dropped into the hex and picked
  up, or taken straight from a friendly soldier in the hex (``acquire`` with ``from``,
  Firepower 11.1.6.5: written next to the new holder and struck off the old one's).
* Grenade versions (Firepower 8.5, docs/decisions.md FPD-116): a grenade row with more than one
  ammunition type (HGN4 G or M, RGN1 G or H) is carried as versions fixed in the list, each its
  own item ``<row>-<type>`` (FP-28's ``HGN4-G = 2, HGN4-M = 1``); a plain ``HGN3`` is the row's
  only version. A throw or load uses one grenade of the version named and that version's values;
  a scenario's list naming a several-version row without its version is refused before play.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from hexwar.core.errors import RulesError

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit

RULE = "Firepower 8.5"
_ITEM = re.compile(r"^([A-Z]{3}\d+)AMO-([ACFGHLMUW])$")
_VERSION = re.compile(r"^([A-Z]{3}\d*)-([A-Z])$")
#: the WEAPON CHART classes carried as grenades whose version the list fixes (Firepower 8.5)
GRENADE_CLASSES = ("HGN", "HRG", "RGN")


def ammo_item(row: str, ammo: str) -> str:
    """The equipment item of one round of ``ammo`` for WEAPON CHART row ``row``."""
    return f"{row}AMO-{ammo}"


def parse_item(item: str) -> tuple[str, str] | None:
    """(row, ammunition type) of a rounds item, None for any other item."""
    m = _ITEM.match(item)
    return (m.group(1), m.group(2)) if m else None


def split_version(item: str) -> tuple[str, str | None]:
    """(row, version) of a carried grenade item: ``HGN4-M`` is ("HGN4", "M"); a plain ``HGN3``
    is ("HGN3", None), its row's first (for a one-type row, only) version (FPD-116)."""
    m = _VERSION.match(item)
    return (m.group(1), m.group(2)) if m else (item, None)


def version_key(row: str, version: str) -> str:
    return f"{row}-{version}"


def versions_carried(equipment: Mapping[str, int], row: str) -> dict[str, int]:
    """Firepower 8.5: the grenades of ``row`` a soldier carries, by version (a plain item of
    the row counts as its first type, FPD-116)."""
    from hexwar.plugins.firepower.weapon_chart import weapon

    out: dict[str, int] = {}
    for item, n in equipment.items():
        r, v = split_version(str(item))
        if r != row or int(n) <= 0:
            continue
        if v is None:
            v = weapon(row).types[0]
        out[v] = out.get(v, 0) + int(n)
    return out


def grenade_stock_key(equipment: Mapping[str, int], row: str, version: str) -> str:
    """The item a grenade of ``row`` in ``version`` is struck off: ``<row>-<version>`` if
    carried, else the plain row (its first version), else ``<row>-<version>`` (none carried)."""
    from hexwar.plugins.firepower.weapon_chart import weapon

    key = version_key(row, version)
    if int(equipment.get(key, 0)) > 0:
        return key
    if int(equipment.get(row, 0)) > 0 and tuple(weapon(row).types[:1]) == (version,):
        return row
    return key


def version_problems(units: Mapping[str, Unit]) -> list[str]:
    """Firepower 8.5: each carried grenade of a row that comes in several versions has its
    version fixed in the list (``HGN4-G``), and each version named is one its row has."""
    from hexwar.plugins.firepower.weapon_chart import chart

    rows = chart()
    out: list[str] = []
    for uid, u in sorted(units.items()):
        for item in sorted(dict(u.state.get("equipment") or {})):
            row, v = split_version(str(item))
            w = rows.get(row)
            if w is None or w.cls not in GRENADE_CLASSES:
                if v is not None:
                    out.append(f"{uid}: {item!r} names a version of {row}, which is no grenade "
                               "of the WEAPON CHART (Firepower 8.5)")
                continue
            if v is None and len(w.types) > 1:
                out.append(f"{uid}: {item} comes as {' or '.join(w.types)}: the organization "
                           f"list fixes each grenade's version (write "
                           f"{', '.join(version_key(row, t) for t in w.types)}) (Firepower 8.5)")
            elif v is not None and v not in w.types:
                out.append(f"{uid}: {row} comes as {'/'.join(w.types)}, not {v} "
                           "(Firepower 10.7)")
    return out


def counted(state: Mapping[str, Any]) -> bool:
    """FPD-88: the stock is counted once the soldier's organization list is given."""
    return "equipment" in state


def stock(state: Mapping[str, Any], row: str, ammo: str) -> int | None:
    """Rounds of ``ammo`` for ``row`` the soldier carries (None: unlimited; "L" always is,
    Firepower 8.5)."""
    if ammo == "L" or not counted(state):
        return None
    return int(dict(state.get("equipment") or {}).get(ammo_item(row, ammo), 0))


def _crewmen(game: Game, uid: str) -> list[Unit]:
    """The soldiers whose rounds a fire by ``uid`` may draw on: his crewmen stacked with him, or
    (a crewman of a weapon unit) the unit's other crewmen stacked with it."""
    from hexwar.plugins.firepower.weapon_units import crew_members, unit_of_firer

    u = game.state.units[uid]
    wu = unit_of_firer(game, uid)
    if wu is not None:
        return [o for o in crew_members(game, wu) if o.id != uid]
    return sorted((o for o in game.state.units.values()
                   if o.state.get("crew_of") == uid and o.hex == u.hex and o.hex is not None
                   and not o.state.get("eliminated")), key=lambda o: o.id)


def rounds_for(game: Game, uid: str, row: str, ammo: str) -> int | None:
    """The rounds a fire of ``row`` with ``ammo`` by ``uid`` may draw: his and his crew's (None:
    unlimited, when his own stock is not counted)."""
    u = game.state.units[uid]
    own = stock(u.state, row, ammo)
    if own is None:
        return None
    return own + sum(stock(o.state, row, ammo) or 0 for o in _crewmen(game, uid))


def draw(game: Game, uid: str, row: str, ammo: str, n: int = 1) -> None:
    """Strike ``n`` rounds off: the firer's first, then his crewmen's by id (FPD-88)."""
    u = game.state.units[uid]
    if stock(u.state, row, ammo) is None:
        return
    item = ammo_item(row, ammo)
    for holder in (u, *_crewmen(game, uid)):
        if n <= 0:
            return
        eq = dict(holder.state.get("equipment") or {})
        have = int(eq.get(item, 0))
        if have <= 0:
            continue
        take = min(have, n)
        n -= take
        if have - take:
            eq[item] = have - take
        else:
            del eq[item]
        holder.state["equipment"] = eq


def stock_problems(units: Mapping[str, Unit]) -> list[str]:
    """Firepower 8.5, 11.1.12: every rounds item listed is of a WEAPON CHART row that fires that
    type, not "L" (unlimited), and a grouped weapon's rounds are whole groups."""
    from hexwar.plugins.firepower.weapon_chart import chart

    out: list[str] = []
    rows = chart()
    for uid, u in sorted(units.items()):
        for item, n in sorted(dict(u.state.get("equipment") or {}).items()):
            if "AMO" not in str(item):
                continue
            got = parse_item(str(item))
            if got is None or got[0] not in rows:
                out.append(f"{uid}: {item!r} names no rounds of a WEAPON CHART row (write "
                           "<row>AMO-<type>, e.g. GLR2AMO-G) (Firepower 8.5)")
                continue
            row, ammo = got
            w = rows[row]
            if ammo == "L":
                out.append(f"{uid}: {item} lists L rounds, which are unlimited (Firepower 8.5)")
            elif ammo not in w.types:
                out.append(f"{uid}: {row} fires {'/'.join(w.types)}, not {ammo} (Firepower 10.7)")
            elif w.load is not None and int(n) % w.load[0]:
                out.append(f"{uid}: {row} rounds come in groups of {w.load[0]}; {n} is not a "
                           "whole number of groups (Firepower 11.1.12)")
    return out


def check_stocks(game: Game) -> None:
    """The scenario's rounds before play: a bad entry stops the game, naming the rule."""
    problems = stock_problems(game.state.units) + version_problems(game.state.units)
    if problems:
        raise RulesError("; ".join(problems), rule=RULE)
