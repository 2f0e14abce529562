"""The state every Firefight rule reads: the game-wide record, unit types and classes (Firefight 3.3),
and events that name units under the name the other side may see.

A rule module never keeps its own caches on the game: derived data lives in ``game.stash``
under a module-level :class:`~hexwar.core.kit.StashKey`. Rules that refuse something raise
:class:`~hexwar.core.errors.RulesError` with the case number (:func:`rule_of` reads it from a
reason such as ``"... Game-Turn (Firefight 6.11)"``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex
from hexwar.core.types import Modifier
from hexwar.plugins.firefight.hookspecs import FirefightHooks
from hexwar.plugins.firefight.tables import UnitData, ff_data

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit



def hooks(game: Game) -> FirefightHooks:
    """The game's :class:`FirefightHooks` facade."""
    return FirefightHooks.of(game)


def ff(game: Game) -> dict[str, Any]:
    """Firefight's game-wide state (``game.state.data["firefight"]``)."""
    data: dict[str, Any] = game.state.data.setdefault("firefight", {})
    return data


# ---------------------------------------------------------------------------------------------
# units (Firefight 3.3)
# ---------------------------------------------------------------------------------------------


#: the Firefight units' data by unit type, for the data it was read from (``ff_data()``, one a
#: process unless a test replaces it): ``utype`` runs tens of thousands of times a game (FFD-48)
_UTYPES: list[Any] = [None, {}]


def utype(unit: Unit) -> UnitData:
    data = ff_data()
    if _UTYPES[0] is not data:
        _UTYPES[0], _UTYPES[1] = data, {}
    got: UnitData | None = _UTYPES[1].get(unit.type)
    if got is not None:
        return got
    system, name = unit.type.split(":", 1)
    if system != "firefight":
        # a guest unit of a cross-system game fights as the Firefight type its adapter names
        # (docs/cross-system.md); without one it has no Firefight meaning, and saying so is clear
        profile = unit.state.get("firefight_as")
        if not isinstance(profile, str) or profile not in ff_data().units:
            raise RulesError(f"unit {unit.id} ({unit.type}) has no Firefight profile: no adapter "
                             "gave it one", rule="Firefight 3.3")
        return data.units[profile]  # the unit's own state names it: not kept by type
    got = _UTYPES[1][unit.type] = data.units[name]
    return got


def side_code(unit_type: str) -> str:
    return unit_type.split(":", 1)[1].split("-", 1)[0]


def target_class(game: Game | None, unit: Unit) -> str:
    """Firefight 6.0 Step 2: personnel / apc / tank; Scn 3 treats the jeep TOW as personnel."""
    cls = utype(unit).cls
    if game is not None:
        special = game.scenario.raw.get("special", {})
        if unit.type.split(":", 1)[1] in special.get("target_as_personnel", ()):
            return "personnel"
    return cls


def is_vehicle(unit: Unit) -> bool:
    return utype(unit).is_vehicle


def on_board(unit: Unit) -> bool:
    return unit.hex is not None


def label(game: Game, h: Hex) -> str:
    return game.board.label(h)


def hexof(game: Game, where: str | Hex) -> Hex:
    if isinstance(where, Hex):
        return where
    try:
        return game.board.parse(where)
    except ValueError as exc:
        raise RulesError(str(exc), rule="Firefight 5.0") from None


def enemy_of(side: str) -> str:
    return "SU" if side == "US" else "US"


def units_at(game: Game, h: Hex) -> list[Unit]:
    return list(game.state.units_at(h))


def carried(unit: Unit) -> bool:
    return bool(unit.state.get("carrier"))


# ---------------------------------------------------------------------------------------------
# shown names and events
# ---------------------------------------------------------------------------------------------


def public_ref(game: Game, unit_id: str) -> str:
    """The name sides other than the owner see for a unit (hook ``firefight_public_ref``)."""
    alias = hooks(game).public_ref(unit_id)
    return unit_id if alias is None else alias


def known_to(game: Game, unit_id: str) -> tuple[str, ...] | None:
    """Who may read a record naming ``unit_id`` by its id and type: everyone (``None``) while
    every other side knows the unit, else its own side only: a face-down counter (Firefight 11)
    or a passenger inside an enemy vehicle (Firefight 16.21) is not the enemy's to identify."""
    u = game.state.units[unit_id]
    h = hooks(game)
    if public_ref(game, unit_id) != unit_id or any(
            unit_id in h.hidden_units(s) for s in game.state.sides if s != u.side):
        return (u.side,)
    return None


def _swap(value: Any, table: Mapping[str, str]) -> Any:
    if isinstance(value, str):
        return table.get(value, value)
    if isinstance(value, list | tuple):
        return [_swap(v, table) for v in value]
    if isinstance(value, dict):
        return {table.get(k, k) if isinstance(k, str) else k: _swap(v, table)
                for k, v in value.items()}
    return value


def _views(game: Game, unit_ids: Iterable[str]) -> list[tuple[tuple[str, ...] | None,
                                                                 dict[str, str]]]:
    """(visible_to, id -> shown name) per reader: one entry for everyone when nobody is
    disguised, else one per side (the owner sees the real id)."""
    aliases = {}
    for uid in unit_ids:
        if uid in game.state.units:
            shown = public_ref(game, uid)
            if shown != uid:
                aliases[uid] = shown
    if not aliases:
        return [(None, {})]
    out: list[tuple[tuple[str, ...] | None, dict[str, str]]] = []
    for side in game.state.sides:
        out.append(((side,), {u: a for u, a in aliases.items()
                              if game.state.units[u].side != side}))
    return out


def emit_about(game: Game, type: str, unit_ids: Iterable[str], **payload: Any) -> None:
    """``game.emit`` for an event naming units: disguised units are shown by their public name
    to the other side (Firefight 11, 12 via ``firefight_public_ref``)."""
    for visible, table in _views(game, list(unit_ids)):
        game.emit(type, visible_to=visible, **_swap(payload, table))


def report_about(game: Game, what: str, unit_ids: Iterable[str], *, result: Any,
                 modifiers: Iterable[Modifier] = (), rules: Iterable[str] = (),
                 **payload: Any) -> None:
    """``game.report`` with the disguise of :func:`emit_about`."""
    mods = list(modifiers)
    for visible, table in _views(game, list(unit_ids)):
        game.report(what, result=result, modifiers=mods, rules=rules, visible_to=visible,
                    **_swap(payload, table))


# ---------------------------------------------------------------------------------------------
# reasons and their case numbers
# ---------------------------------------------------------------------------------------------

#: a citation closing a reason: "... Game-Turn (Firefight 6.11, 4.1)", "... Firefight 6.57"
_TRAILING_RULE = re.compile(
    r"\s*(?:\(Firefight [^()]*(?:\([^()]*\)[^()]*)?\)|Firefight \d[^()]*(?:\([^()]*\))?)$")
_FIRST_RULE = re.compile(r"Firefight (\d[\d.]*\d|\d|Addenda)")


def strip_rule(text: str) -> str:
    """A reason without its trailing case number."""
    return _TRAILING_RULE.sub("", text)


def rule_of(text: str, default: str = "Firefight 6.0") -> str:
    """The first case number a reason cites (``default`` when it cites none)."""
    m = _FIRST_RULE.search(text)
    return f"Firefight {m.group(1)}" if m else default
