"""Words for a human at the terminal: every Firepower decision with its options numbered from 1,
as the terminal reads a number (``1`` is the first option): the choice of board side and the
set-up (Firepower 2.2, Firepower 2.4), the soldiers of an Impulse (Firepower 6.1) and each Action
offered (Firepower 6.2), with hit numbers and modifiers for fire."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from hexwar.core.errors import RulesError
from hexwar.core.types import total
from hexwar.core.web.present import words
from hexwar.plugins.firepower import combat
from hexwar.plugins.firepower.actions import check_action, fire_procedure, mf_left
from hexwar.plugins.firepower.state import alive, data

if TYPE_CHECKING:
    from hexwar.core.engine.decisions import Decision
    from hexwar.core.engine.game import Game

#: set-up options listed in words (a zone has hundreds); the rest are typed as JSON
SHOWN_PLACES = 60


def _advanced_extra(game: Game, info: dict[str, Any]) -> int:
    """The MF the Advanced Game charges after a move besides its cost: snow or mud (Firepower
    11.2.2) and a height hexside (Firepower 11.1.4)."""
    if "firepower.advanced" not in game.rules_enabled:
        return 0
    from hexwar.plugins.firepower import height_hexsides, weather

    return weather.extra_cost(game, info) + height_hexsides.extra_cost(game, info)


def describe_choice(game: Game, choice: Any) -> str:
    """One Action in words (Firepower 6.2), with its MF cost; fire and grenades with the hit
    number and the modifiers total."""
    if choice == "end":
        return "end this Impulse"
    act = choice.get("act")
    if act == "melee":
        return f"melee: {', '.join(choice['units'])} enter {choice['hex']} (Firepower 6.5)"
    uid = choice.get("unit")
    try:
        info = check_action(game, choice)
    except RulesError as exc:
        return f"{words(choice)} (illegal: {exc})"
    cost = info.get("cost", 0) + _advanced_extra(game, info)
    if act == "enter":
        return f"{uid}: enter {game.board.label(info['to'])} ({cost} MF)"
    if act == "turn":
        return f"{uid}: turn to face hexside {choice['to']} ({cost} MF)"
    if act == "posture":
        return f"{uid}: {choice['to']} ({cost} MF)"
    if act == "cross":
        return f"{uid}: cross the fence/hedge ({cost} MF)"
    if act not in ("fire", "grenade"):  # an optional rule's Action, its fields in words
        from hexwar.core.words import words as field_words

        rest = {k: v for k, v in choice.items() if k not in ("unit", "act")}
        detail = f" {field_words(rest)}" if rest else ""
        return f"{uid}: {str(act).replace('_', ' ')}{detail} ({cost} MF)"
    ctx: combat.FireContext = info["ctx"]
    # the game's procedure, optional rules' steps and modifiers included, up to its first die
    combat.preview(ctx, fire_procedure(game, ctx.kind))
    if act == "fire":
        parts = [f"{t} {total(ctx.modifiers.get(t, [])):+g}" for t in ctx.targets]
        after = choice.get("after", 0)
        return (f"{uid}: fire {ctx.mode}" + (" (suppressive)" if choice.get("suppressive") else "")
                + f" at {', '.join(parts)}, range {ctx.range}, hit number "
                f"{ctx.hit}" + (f", then {after} MF more" if after else "") + f" ({cost} MF)")
    f = ctx.extra.get("summary") or {}
    what = f"{f['item']} ({f['ammo']})" if f.get("item") else "grenade"  # the Advanced Game
    return (f"{uid}: {what} at {choice['hex']}, range {ctx.range}, hit number {ctx.hit} "
            f"{total(ctx.modifiers.get('throw', [])):+g} ({cost} MF)")


def _describe_impulse(game: Game, choice: Any) -> str:
    if choice == "pass":
        return "pass: no more Impulses this Impulse Phase"
    units = [game.state.units[u] for u in choice.get("units", [])]
    if choice.get("hit_the_dirt"):  # the Advanced Game (Firepower 11.3.3)
        return (f"squad {choice.get('squad')}: Hit the Dirt! " + ", ".join(u.id for u in units)
                + " go Prone")
    if choice.get("squad") is not None:  # an Impulse of one squad (Firepower 9.2)
        return f"squad {choice['squad']}, {choice.get('hex')}: " + ", ".join(
            f"{u.id} {u.state.get('weapon')}" for u in units)
    return f"{choice.get('hex')}: " + ", ".join(
        f"{u.id} {u.state.get('weapon')}" for u in units)


def _describe_place(game: Game, choice: Any) -> str:
    return (f"{choice.get('hex')} facing hexside {choice.get('facing')}, "
            f"{choice.get('posture', 'stand')}")


def _describe_board_side(game: Game, choice: Any) -> str:
    return f"set up along side {choice} of the mapboard"


def _soldier_lines(game: Game) -> list[str]:
    ph = data(game).get("phase") or {}
    lines = []
    for uid in ph.get("active", []):
        u = game.state.units[uid]
        if not alive(u) or u.hex is None:
            continue
        st = u.state
        lines.append(f"  {uid} {st.get('weapon')} in {game.board.label(u.hex)} facing "
                     f"{u.facing}, {st.get('posture')}, {st.get('speed')}"
                     + (f", {st['status']}" if st.get("status") else "")
                     + f": {mf_left(game, ph, uid)} MF left")
    return lines


def _in_words(game: Game, choice: Any) -> str:
    return words(choice)


DESCRIBE: dict[str, Callable[[Game, Any], str]] = {
    "board_side": _describe_board_side,
    "place": _describe_place,
    "impulse": _describe_impulse,
    "action": describe_choice,
}


def explain_decision(game: Game, decision: Decision) -> str:
    """The decision's prompt and rule, the soldiers acting (for an Action), then its options
    numbered from 1 in words (an unknown kind of decision: in generic words)."""
    head = decision.prompt or decision.kind
    lines = [f"{head} ({decision.rule})" if decision.rule else head]
    if decision.kind == "action":
        lines.extend(_soldier_lines(game))
    describe = DESCRIBE.get(decision.kind, _in_words)
    options = list(decision.options or [])
    shown = SHOWN_PLACES if decision.kind == "place" else len(options)
    for i, option in enumerate(options[:shown], start=1):
        lines.append(f"  {i:>3}. {describe(game, option)}")
    if len(options) > shown:
        lines.append(f"  ... {len(options) - shown} more (type the JSON of any legal choice)")
    return "\n".join(lines)
