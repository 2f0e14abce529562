"""Crossing a height hexside in the Advanced Game (Firepower 11.1.4): a hill, ditch or depression
hexside crossed going up or down costs MF by its height and the soldier's posture.

The Basic ``enter`` already pays the Basic chart's crossing with the entering (Firepower 6.2.3,
docs/decisions.md FPD-12: one choice, so the new hex's MF must be there too, as 11.1.4 asks). In
the Advanced Game the crossing's MF are the stand-in LEG chart's of
``data/advanced/height_hexsides.toml`` (estimated, FPD-170) by the heights between the two
grounds (Firepower 8.2.2: each contour level its heights); :func:`extra_cost` is what they add to
the Basic crossing. Hexsides over 10 heights are climbed (``climbing.py``, Firepower 11.2.4). A
move along a bridge's deck crosses none (Firepower 8.9). :func:`check` refuses a move the soldier
lacks the MF for (pure); :func:`after_action` charges the extra once the move is made.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex, opposite
from hexwar.core.provenance import load_records

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game

PATH = Path(__file__).parent / "data" / "advanced" / "height_hexsides.toml"
RULE = "Firepower 11.1.4"


@cache
def bands() -> tuple[tuple[int, dict[str, int]], ...]:
    """(highest height, MF by posture) of each band, lowest first (FPD-170)."""
    rows = load_records(PATH).values["band"]
    return tuple(sorted((int(r["up_to"]), {p: int(r[p]) for p in ("stand", "crouch", "prone")})
                        for r in rows))


def crossing_mf(heights: int, posture: str) -> int | None:
    """Firepower 11.1.4: the MF of crossing a hexside ``heights`` high (up or down) in
    ``posture``; None over the highest band (it is climbed: Firepower 11.2.4)."""
    h = abs(heights)
    for top, mf in bands():
        if h <= top:
            return mf.get(posture, mf["stand"])
    return None


def _heights(game: Game, src: Hex, dest: Hex) -> int:
    from hexwar.plugins.firepower.advanced_terrain import ground_of

    return abs(ground_of(game, dest) - ground_of(game, src))


def extra_cost(game: Game, info: dict[str, Any], *, applied: bool = False) -> int:
    """The MF crossing a height hexside adds to an ``enter`` beyond the Basic crossing it
    already paid (0 if none was crossed). ``applied``: the soldier stands in the hex entered."""
    if info.get("act") != "enter" or info.get("stopped"):
        return 0
    parts = info.get("parts") or []
    if not any(str(p).startswith("cross hill/depression hexside") for p in parts):
        return 0  # no contour on the way, or along a bridge's deck (Firepower 8.9)
    uid = str(info.get("unit"))
    u = game.state.units.get(uid)
    if u is None or u.hex is None or u.state.get("tunnel"):
        return 0
    src: Hex = u.hex.neighbor(opposite(u.facing)) if applied else u.hex
    dest = u.hex if applied else info.get("to")
    if not isinstance(dest, Hex):
        return 0
    from hexwar.plugins.firepower.state import rules_card

    posture = str(u.state.get("posture", "stand"))
    mf = crossing_mf(_heights(game, src, dest), posture)
    if mf is None:
        return 0  # climbed, refused as a crossing elsewhere (climbing.py)
    return max(0, mf - rules_card(game).mf_cost("cross", posture))


def check(game: Game, info: dict[str, Any]) -> None:
    """Refuse (pure) a move across a height hexside whose MF the soldier lacks: the entering,
    an abatis's and the weather's extras and the hexside's (Firepower 11.1.4: the new hex's MF
    must be there too); a fire's announced MF likewise (Firepower 6.3.6)."""
    extra = extra_cost(game, info)
    if not extra:
        return
    from hexwar.plugins.firepower import weather
    from hexwar.plugins.firepower.actions import mf_left
    from hexwar.plugins.firepower.state import data

    uid = str(info["unit"])
    ph = data(game)["phase"]
    need = (int(info.get("cost", 0)) + weather._abatis(game, info)
            + weather.extra_cost(game, info) + extra)
    left = mf_left(game, ph, uid)
    h = _heights(game, game.state.units[uid].hex, info["to"])  # type: ignore[arg-type]
    if left < need:
        raise RulesError(f"{uid} has {left} MF left; over the {h}-height hexside and into the "
                         f"hex the move costs {need}", rule=RULE)
    after = ph["after"].get(uid)
    if after is not None and need > int(after):
        raise RulesError(f"{uid} announced only {after} more MF when firing; over the "
                         f"{h}-height hexside the move costs {need}", rule="Firepower 6.3.6")


def after_action(game: Game, action: Any, info: dict[str, Any]) -> None:
    """Charge the height hexside's extra of an ``enter`` just made."""
    if not isinstance(action, dict):
        return
    n = extra_cost(game, info, applied=True)
    if not n:
        return
    from hexwar.plugins.firepower.actions import _shown, spend_extra

    uid = str(info["unit"])
    spend_extra(game, uid, n)
    u = game.state.units[uid]
    game.emit("height_hexside", unit=uid, cost=n,
              hex=game.board.label(u.hex) if u.hex is not None else None,
              visible_to=_shown(game, uid), rule=RULE)


def check_melee(game: Game, info: dict[str, Any]) -> None:
    """A melee's attackers enter the hex (Firepower 6.2.5.2): each must have the MF of his
    entering with the height hexside's (Firepower 11.1.4) and the snow or mud's (Firepower
    11.2.2) extras, and an abatis's, besides the melee's own; raises RulesError naming the rule
    of the extra that is short (pure). Nothing more is charged: a winner ends his Actions in the
    hex (Firepower 6.5.3), a loser is eliminated."""
    if info.get("act") != "melee" or not info.get("defenders"):
        return
    from hexwar.plugins.firepower import weather
    from hexwar.plugins.firepower.actions import _on_deck_way, enter_cost, mf_left
    from hexwar.plugins.firepower.state import data, fp_map, rules_card

    ph = data(game)["phase"]
    dest = info.get("hex")
    for uid in info.get("units") or []:
        u = game.state.units[str(uid)]
        if u.hex is None or u.state.get("tunnel"):
            continue
        cost, _front, parts = enter_cost(rules_card(game), fp_map(game), u,
                                         level=_on_deck_way(game, u))
        move = {"act": "enter", "unit": str(uid), "to": dest, "cost": cost, "parts": parts}
        snow, hill = weather.extra_cost(game, move), extra_cost(game, move)
        if not snow and not hill:
            continue
        need = int((info.get("costs") or {}).get(uid, 0)) + weather._abatis(game, move) \
            + snow + hill
        left = mf_left(game, ph, str(uid))
        if left < need:
            raise RulesError(f"{uid} has {left} MF left; the melee's entering costs {need} "
                             f"with the {'height hexside' if hill else weather.weather(game)}",
                             rule=RULE if hill else "Firepower 11.2.2")
