"""MBT 12.5, squads and half squads (Advanced Game).

* Only combat halves and suppresses a squad: an effective GP result, a lost hand-to-hand fight,
  a mine (MBT 12.5, 14.4.4.2.3.4, 14.6.2.2); the reduction itself is
  :func:`hexwar.plugins.mbt.advanced_fire.after_damage` (``leg_ef``). A player never breaks a squad
  into two half squads, nor puts two half squads together into a squad (MBT 12.5): the game has
  no such action and refuses a scenario that asks for one (docs/decisions.md MBTD-117).
* A half squad may also be fielded as one: the TO&E lists ``½ Squad ...`` components (the squad's
  own card, fielded halved, MBT 15.1 "squads, ½ squads, and teams"), and a scenario's unit may
  start with ``state = { half = true }``. Such a unit is marked ``half_at_start``: it is a half
  squad from the first Turn (an effective result eliminates it), and its victory points are the
  half squad's, not a reduction's (MBT Scenario D.1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hexwar.core.engine.state import Unit
    from hexwar.plugins.mbt.cards import Card

HALF_PREFIX = "½ "  # how the TO&E names a half squad ("½ Squad Standard Infantry")
#: state keys a scenario might use to split or join squads: refused (MBT 12.5)
NO_SUCH_ACTION = ("split", "combine", "combined_from", "split_from")


def squad_of(unit: str) -> tuple[str, bool]:
    """The TO&E unit name of a component without its half-squad mark, and whether it had one
    (``"½ Squad Standard Infantry"`` -> ``("Squad Standard Infantry", True)``)."""
    if unit.startswith(HALF_PREFIX):
        return unit.removeprefix(HALF_PREFIX), True
    return unit, False


def is_squad(card: Card) -> bool:
    """MBT 12.5, 15.1: a squad card (a leg unit of two or more stacking points; a team has one)."""
    return card.kind == "leg" and card.stacking >= 2


def is_half(u: Unit) -> bool:
    return bool(u.state.get("half"))


def start_half(state: dict[str, Any]) -> None:
    """A unit fielded as a half squad (TO&E or scenario): half from the start, and so marked."""
    state["half"] = True
    state["half_at_start"] = True


def state_problems(state: Any, card: Card | None) -> list[str]:
    """MBT 12.5: what is wrong with a scenario unit's half-squad state (``card`` None when the
    card is unknown: that is named elsewhere)."""
    if not isinstance(state, dict):
        return []
    out: list[str] = []
    for key in NO_SUCH_ACTION:
        if key in state:
            out.append(f"state {key!r}: a squad is never split into half squads nor two half "
                       "squads combined; only combat halves a squad (MBT 12.5)")
    half = state.get("half")
    if half is None:
        return out
    if not isinstance(half, bool):
        out.append(f"state half must be true or false, not {half!r} (MBT 12.5)")
    elif half and card is not None and not is_squad(card):
        out.append(f"state half: only a squad can be a half squad, and {card.name} is a "
                   f"{'team' if card.kind == 'leg' else card.kind} (MBT 12.5, 15.1)")
    return out


def mark_scenario_half(u: Unit) -> None:
    """A scenario unit written with ``half = true`` starts as a half squad (validated before)."""
    if u.state.get("half") is True:
        start_half(u.state)


def victory_value(u: Unit, points: int, half_points: int) -> int:
    """MBT Scenario D.1: what a leg unit is worth to the enemy now: a knocked-out squad its
    points, a knocked-out half squad fielded as one the squad's less the reduction's, a squad
    reduced to a half squad the reduction's (``half_points``), otherwise nothing."""
    if u.state.get("destroyed"):
        return points - half_points if u.state.get("half_at_start") else points
    if u.state.get("half") and not u.state.get("half_at_start"):
        return half_points
    return 0
