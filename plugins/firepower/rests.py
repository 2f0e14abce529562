"""Weapons at rest (Firepower 10.7 item 10, Firepower 12.6.2).

A weapon is at rest when something in the soldier's hex stands at the height of his head, to lay
it on: the lip of the hole he stands in (FP-37: Standing, +2, in a deep foxhole, -2: his head at
ground level), the sill of a window of his hex on his floor (FP-38: Crouching, +1, at a window
whose sill is one height up, Firepower 8.2.3), the top of the fence or wall of his hex
(Firepower 12.5), or the bottom of the loopholes of the bunker, pillbox or sandbagged tower he is
in (Firepower 8.8.4.1, 8.8.4.2, 8.8.6). An Up soldier never has a rest (Firepower 10.7 item 10).

What a rest does: the rows of ``data/advanced/rests.toml`` (stand-in notes) fire, or fire
automatic, from a posture only at rest (:func:`check`), and a bipod weapon at rest may spread its
bursts over three adjacent hexes as if Prone (Firepower 12.6.2). The text gives no die modifier for
a rest: the posture column's own modifier applies as ever (docs/decisions.md FPD-154).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from hexwar.core.errors import RulesError
from hexwar.core.provenance import load_records

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit
    from hexwar.plugins.firepower.weapon_chart import ChartWeapon

TABLE = Path(__file__).parent / "data" / "advanced" / "rests.toml"


@cache
def needs() -> dict[str, dict[str, str]]:
    """Row -> posture -> "any" or "auto" (``data/advanced/rests.toml``)."""
    v = load_records(TABLE).values
    return {str(r): {str(p): str(k) for p, k in row.items()} for r, row in v["need"].items()}


def _is_up(u: Unit) -> bool:
    s = u.state
    return (isinstance(s.get("up"), int) and not isinstance(s.get("up"), bool)) or bool(
        s.get("climb") or s.get("roof_climb") or s.get("rbl_climb")) or \
        s.get("posture") == "up"


def rest_of(game: Game, uid: str) -> str | None:
    """What soldier ``uid`` rests his weapon on, None if nothing (see the module)."""
    from hexwar.plugins.firepower.advanced_terrain import adv_map, floor_of
    from hexwar.plugins.firepower.defenses import in_defence, types
    from hexwar.plugins.firepower.squads import head_height
    from hexwar.plugins.firepower.state import fp_map

    u = game.state.units[uid]
    if u.hex is None or _is_up(u):
        return None
    head = head_height(str(u.state.get("posture", "stand")))
    code = in_defence(u)
    t = types().get(code) if code else None
    if t is not None and t.kind == "hole":
        # Firepower 10.7 item 10 (FP-37): his feet are the hole's depth down
        feet = u.state.get("stands_at")
        depth = int(feet) if isinstance(feet, int) else -t.depth
        return f"the lip of the {t.name}" if depth + head == 0 else None
    if t is not None:
        lo = t.loophole[0] if t.loophole else None
        if lo is None and code and code.endswith("+S"):
            lo = 1  # a sandbagged tower's loopholes, one to two heights up (Firepower 8.8.6)
        return f"the {t.name}'s loophole" if lo is not None and lo == head else None
    m = adv_map(game)
    if m.building(u.hex) is not None:
        floor = floor_of(u)
        for o in m.openings_of(u.hex):
            if o.inside == u.hex and o.floor == floor and o.kind == "window" \
                    and o.span[0] == head:
                return "the window sill"  # FP-38
        return None
    fence = fp_map(game).fence.get(u.hex)
    if fence is not None:
        from hexwar.plugins.firepower.advanced_los import los_world

        if los_world(game).fence_top(u.hex) == head:
            return f"the top of the {fence.kind}"
    return None


def check(game: Game, uid: str, w: ChartWeapon | None, mode: str) -> str | None:
    """Firepower 10.7 item 10: refuse fire the row's notes allow only at rest when the soldier has
    none; returns what he rests on (None: no rest)."""
    got = rest_of(game, uid)
    if w is None:
        return got
    posture = str(game.state.units[uid].state.get("posture", "stand"))
    need = needs().get(w.id, {}).get(posture)
    if got is None and (need == "any" or (need == "auto" and mode == "auto")):
        what = "fire" if need == "any" else "automatic fire"
        raise RulesError(f"{w.id} allows {what} {posture} only at rest, and {uid} has nothing "
                         "at his head's height to rest it on", rule="Firepower 10.7")
    return got
