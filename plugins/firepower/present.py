"""Firepower decisions as forms of the web table (``hexwar_present_decision``).

The board side (Firepower 2.2); set-up: the hexes of the set-up area, then a facing and posture
(Firepower 2.4); an Impulse: the hexes whose soldiers may act (Firepower 6.1); an Action: each
soldier's Actions with their MF cost, fire and grenades with the hit number (Firepower 6.2), in
the words of the terminal's explanation (``explain.py``), the hexes they enter or aim at marked
on the map.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.view import game_of
from hexwar.plugins.firepower.explain import DESCRIBE

if TYPE_CHECKING:
    from hexwar.core.engine.decisions import Decision
    from hexwar.core.engine.view import SideView

Form = dict[str, Any]


def _item(view: SideView, d: Decision, o: Any) -> dict[str, Any]:
    game = game_of(view)  # the engine presenting the side its own decision
    item: dict[str, Any] = {"choice": o, "label": DESCRIBE[d.kind](game, o)}
    if not isinstance(o, Mapping):
        return item
    if d.kind == "place":
        item["hex"] = item["group"] = str(o.get("hex"))
    elif d.kind == "impulse":
        if o.get("hex") is not None:  # an Advanced "Hit the Dirt!" names no hex (11.3.3)
            item["hex"] = str(o.get("hex"))
        if o.get("squad") is not None:  # the Advanced Game's squads (Firepower 9.2)
            item["group"] = str(o.get("squad"))
        units = [str(u) for u in o.get("units", [])]
        if len(units) == 1:
            item["unit"] = units[0]
    elif d.kind == "action":
        uid = o.get("unit")
        if isinstance(uid, str):
            item["group"] = uid
        target = o.get("hex")
        if o.get("act") == "enter" and uid in game.state.units:
            from hexwar.plugins.firepower.actions import check_action

            try:
                info = check_action(game, dict(o))
                target = game.board.label(info["to"])
                item["note"] = f"{info.get('cost', 0)} MF"
            except Exception:  # an Action the rules now refuse: shown, but not marked
                target = None
        if isinstance(target, str):
            item["hex"] = target
        targets = [t for t in o.get("targets", []) if isinstance(t, str) and t in view.units]
        if targets:
            item["unit"] = targets[0]
    return item


def present_decision(view: SideView, decision: Decision) -> Form | None:
    """The form of a Firepower decision, or ``None`` (the core's list) for the others."""
    if decision.kind not in DESCRIBE:
        return None
    choices = [_item(view, decision, o) for o in decision.options or ()]
    if decision.kind == "action":
        groups = {c.get("group") for c in choices}
        if len(groups - {None}) <= 1:  # one soldier acting: no first step
            for c in choices:
                c.pop("group", None)
    notes = {"place": "Click a highlighted hex, then the facing and posture (Firepower 2.4).",
             "impulse": "Click the hex whose soldiers act in this Impulse (Firepower 6.1).",
             "action": "Pick the next Action; fire shows its hit number (Firepower 6.2, 7.0).",
             "board_side": "Pick the side of the mapboard to set up along (Firepower 2.2)."}
    return {"widget": "choose", "choices": choices, "notes": [notes[decision.kind]]}
