"""National equipment lists (Firepower 8.5, Firepower 14, Firepower 22.1.11.1.1): what the
soldiers of a nation carry, as data (``data/advanced/nations.toml``; the printed lists are not
in the text: docs/decisions.md FPD-169), and the check a side that names its nation passes
before play.

A scenario side names its nation: ``[sides.A] nation = "us"``. Each of its soldiers' major
personal weapon (``state.model``), every item of his organization list (``state.equipment``)
and each weapon unit the side owns (``special.weapon_units``) must be on the nation's list, or
be anyone's (Firepower 22.1.11.1.1: body armour, any hand grenade, NBC suits and what comes with
a weapon), or be rounds of a weapon on the list. Enemy weapons are acquired in play, never set
up (Firepower 11.1.6.1: carried, not used). A side without a nation is not checked (hexwar's
scenarios before the lists).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hexwar.core.errors import RulesError
from hexwar.core.provenance import load_records
from hexwar.plugins.firepower.ammunition import parse_item, split_version

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game

PATH = Path(__file__).parent / "data" / "advanced" / "nations.toml"
RULE = "Firepower 8.5"


@dataclass(frozen=True)
class Nation:
    """One National Equipment List (Firepower 8.5, 22.1.11.1.1)."""

    id: str
    title: str
    stand_in: bool
    weapons: frozenset[str]
    equipment: frozenset[str]

    def allows(self, item: str) -> bool:
        """A weapon row or item the nation's soldiers may be set up with (with anyone's items
        and the rounds of the nation's weapons)."""
        if item in self.weapons or item in self.equipment:
            return True
        rounds = parse_item(item)
        if rounds is not None:
            return rounds[0] in self.weapons
        row, _version = split_version(item)
        if row in self.equipment or row in self.weapons:
            return True
        codes, classes = common()
        return row in codes or row.rstrip("0123456789") in classes


@cache
def common() -> tuple[frozenset[str], frozenset[str]]:
    """Firepower 22.1.11.1.1: the items anyone may carry, as codes and WEAPON CHART classes."""
    v = load_records(PATH).values["common"]
    return frozenset(map(str, v["codes"])), frozenset(map(str, v["classes"]))


@cache
def nations() -> dict[str, Nation]:
    out: dict[str, Nation] = {}
    for nid, row in (load_records(PATH).values.get("nations") or {}).items():
        out[nid] = Nation(nid, str(row["title"]), bool(row["stand_in"]),
                          frozenset(map(str, [*row["weapons"], *row.get("more_weapons", [])])),
                          frozenset(map(str, row["equipment"])))
    return out


def nation(nid: str) -> Nation:
    got = nations().get(nid)
    if got is None:
        raise RulesError(f"no National Equipment List {nid!r} (known: "
                         f"{', '.join(sorted(nations()))})", rule=RULE)
    return got


def side_nation(game: Game, side: str) -> Nation | None:
    nid = (game.scenario.sides.get(side) or {}).get("nation")
    return nation(str(nid)) if nid is not None else None


def check_nations(game: Game) -> None:
    """Before play (Firepower 8.5): every soldier of a side that names its nation is set up with
    his nation's weapon and items, every weapon unit it owns is its nation's; raises RulesError
    naming the rule and the first soldier or unit that is not."""
    sides = {s: side_nation(game, s) for s in sorted(game.scenario.sides)}
    if not any(sides.values()):
        return
    for u in sorted(game.state.units.values(), key=lambda x: x.id):
        n = sides.get(u.side)
        if n is None:
            continue
        model = u.state.get("model")
        if isinstance(model, str) and model and not n.allows(model):
            raise RulesError(f"{u.id}'s {model} is not on the National Equipment List of "
                             f"{n.title}", rule=RULE)
        for item in sorted(u.state.get("equipment") or {}):
            if not n.allows(str(item)):
                raise RulesError(f"{u.id} carries {item}, which is not on the National "
                                 f"Equipment List of {n.title}", rule=RULE)
    special: Any = game.scenario.raw.get("special") or {}
    for i, w in enumerate(special.get("weapon_units") or []):
        if not isinstance(w, dict):
            continue
        n = sides.get(str(w.get("side")))
        if n is not None and not n.allows(str(w.get("model"))):
            raise RulesError(f"special.weapon_units[{i}] ({w.get('id')}): {w.get('model')} is "
                             f"not on the National Equipment List of {n.title}", rule=RULE)
