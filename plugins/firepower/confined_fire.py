"""Fire from confined places (Firepower 12.4.2, Firepower 12.4.3).

* Firepower 12.4.2: a mortar fired normally, by its high trajectory, may not be fired out of a
  covered structure: a roofed building (every building of hexwar's terrain has its flat roof,
  Firepower 8.2.3, until a blast destroys it), a pillbox, a bunker, a cave or a tunnel. Fired by
  hand (MRT4, MRT5; mode ``hand``) it may.
* Firepower 12.4.3: a weapon with a backblast (the WEAPON CHART's ``backblast`` rows: the
  launchers and recoilless guns) is refused where its blast behind has no room: from a bunker,
  pillbox, tower, cave, tunnel or building (vehicles come with the optional rules).

A soldier on top of a bunker or pillbox (``on_top``) is outside it; one in a building hex is
inside it on his floor, one on its roof outside it (FPD-176). :func:`check` runs when the
fire is prepared, so the refusal changes nothing (docs/decisions.md FPD-152).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexwar.core.errors import RulesError

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit
    from hexwar.plugins.firepower.weapon_chart import ChartWeapon

#: positions (Firepower 8.8.1) whose insides are roofed, and those that are confined
ROOFED = ("BKR", "PBX")
CONFINED = ("BKR", "PBX", "TWR")


def place(game: Game, u: Unit) -> tuple[str, bool] | None:
    """(what the soldier is inside, whether it is roofed) or None if he is in the open."""
    from hexwar.plugins.firepower.advanced_terrain import adv_map, in_tunnel
    from hexwar.plugins.firepower.defenses import in_defence

    if u.hex is None:
        return None
    if in_tunnel(u):
        return ("a tunnel", True)
    pos = in_defence(u)
    code = pos.split("+")[0] if pos else None
    if code in CONFINED and not u.state.get("on_top"):
        names = {"BKR": "a bunker", "PBX": "a pillbox", "TWR": "a tower"}
        return (names[code], code in ROOFED)
    m = adv_map(game)
    if u.hex in m.caves and not u.state.get("on_top"):
        return ("a cave", True)
    bd = m.building(u.hex)
    if bd is not None and u.state.get("roof") is None:  # on the roof he is outside (FPD-176)
        roofless = set(_roofless(game))
        return (f"building {bd.id}", game.board.label(u.hex) not in roofless)
    return None


def _roofless(game: Game) -> list[str]:
    """The labels of building hexes whose roof a blast destroyed (Firepower 12.3.4.2.7)."""
    from hexwar.plugins.firepower.state import data

    got = data(game).get("roofless") or []
    return [str(h) for h in got]


def check(game: Game, uid: str, w: ChartWeapon | None, mode: str) -> None:
    """Raise the RulesError of Firepower 12.4.2 or 12.4.3 when ``uid`` may not fire ``w`` (in
    ``mode``) where he is."""
    if w is None or not (w.backblast or (w.high_trajectory and not (w.by_hand
                                                                    and mode == "hand"))):
        return
    u = game.state.units[uid]
    got = place(game, u)
    if got is None:
        return
    what, roofed = got
    if w.backblast:
        raise RulesError(f"{w.id} has a backblast: it may not be fired inside {what}",
                         rule="Firepower 12.4.3")
    if roofed:
        hand = " (only MRT4 and MRT5 fired by hand may)" if w.cls == "MRT" else ""
        raise RulesError(f"{w.id}'s high trajectory may not be fired from under the roof of "
                         f"{what}{hand}", rule="Firepower 12.4.2")
