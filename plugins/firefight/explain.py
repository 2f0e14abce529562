"""Words for a human at the terminal: every Firefight decision with its options numbered from 1,
as the terminal reads a number (``1`` is the first option); each attack with its range and Attack
Rating (Firefight 6.0), each step of a move with its MP cost (Firefight 7.0)."""

from __future__ import annotations

from typing import Any

from hexwar.core.web.present import words
from hexwar.plugins.firefight.fire import attack_rating, choose_weapon, describe_attack
from hexwar.plugins.firefight.movement import step_cost


def explain_decision(view: Any, decision: Any) -> str:
    """Describe a Firefight decision for a player at the terminal: each attack with its range
    and Attack Rating (Firefight 6.0), each step with its MP cost (Firefight 7.0). Options are
    numbered from 1, as the terminal reads them."""
    from hexwar.core.engine.view import game_of

    game = game_of(view)  # the engine's own words; the options are the side's own
    lines = [f"{decision.prompt} ({decision.rule})"]
    for i, o in enumerate(decision.options or (), start=1):
        text = words(o)  # the web form's words when the system has none of its own
        try:
            if isinstance(o, dict) and "firers" in o:
                f = game.state.units[o["firers"][0]]
                t = game.state.units[o["target"]]
                w = choose_weapon(game, f, t, o["weapons"].get(f.id))
                att = describe_attack(game, f, t, w, str(decision.context.get("mode", "direct")))
                base, _, mods = attack_rating(game, att)
                ar = None if base is None else base + sum(m.value for m in mods)
                text = (f"{f.id} fires {w.line} at {t.id} ({t.type.split(':')[1]}) range "
                        f"{att['range']}: AR {ar} {att['filters'] or ''}")
            elif isinstance(o, dict) and "to" in o:
                u = game.state.units[decision.context["unit"]]
                if u.hex is not None:
                    cost = step_cost(game, game.board, u, u.hex, game.board.parse(o["to"]))
                    text = f"to {o['to']} ({cost:g} MP of {u.state.get('mp', 0):g})"
        except (KeyError, ValueError):
            pass
        lines.append(f"  [{i}] {text}")
    return "\n".join(lines)
