"""Words for a human at the terminal: the soldiers of the Impulse and each Action offered."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from hexwar.core.errors import RulesError
from hexwar.core.types import total
from hexwar.plugins.firepower import combat, engine

if TYPE_CHECKING:
    from hexwar.core.engine.decisions import Decision
    from hexwar.core.engine.game import Game


def describe_choice(game: Game, choice: Any) -> str:
    if choice == "end":
        return "end this Impulse"
    act = choice.get("act")
    if act == "melee":
        return f"melee: {', '.join(choice['units'])} enter {choice['hex']} (6.5)"
    uid = choice.get("unit")
    try:
        info = engine.check_action(game, choice)
    except RulesError as exc:
        return f"{json.dumps(choice)} (illegal: {exc})"
    cost = info.get("cost", 0)
    if act == "enter":
        return f"{uid}: enter {game.board.label(info['to'])} ({cost} MF)"
    if act == "turn":
        return f"{uid}: turn to face hexside {choice['to']} ({cost} MF)"
    if act == "posture":
        return f"{uid}: {choice['to']} ({cost} MF)"
    if act == "cross":
        return f"{uid}: cross the fence/hedge ({cost} MF)"
    ctx: combat.FireContext = info["ctx"]
    if act == "fire":
        combat.step_hit_number(ctx)
        parts = []
        for t in ctx.targets:
            mods = ctx.mods_for(ctx.soldiers[t])
            parts.append(f"{t} {total(mods):+g}")
        after = choice.get("after", 0)
        return (f"{uid}: fire {ctx.mode} at {', '.join(parts)}, range {ctx.range}, hit number "
                f"{ctx.hit}" + (f", then {after} MF more" if after else "") + " (2 MF)")
    combat.step_grenade_hit(ctx)
    return (f"{uid}: grenade at {choice['hex']}, range {ctx.range}, hit number {ctx.hit} "
            f"{total(ctx.modifiers['throw']):+g} (2 MF)")


def explain_action_decision(game: Game, decision: Decision) -> str:
    ph = engine.data(game).get("phase") or {}
    lines = [f"{decision.prompt} ({decision.rule})"]
    for uid in ph.get("active", []):
        u = game.state.units[uid]
        if not engine.alive(u) or u.hex is None:
            continue
        st = u.state
        lines.append(f"  {uid} {st.get('weapon')} in {game.board.label(u.hex)} facing "
                     f"{u.facing}, {st.get('posture')}, {st.get('speed')}"
                     + (f", {st['status']}" if st.get("status") else "")
                     + f": {engine.mf_left(game, ph, uid)} MF left")
    for i, option in enumerate(list(decision.options or []), start=1):
        lines.append(f"  {i:>3}. {describe_choice(game, option)}")
    return "\n".join(lines)
