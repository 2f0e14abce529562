"""``hexwar mbt fire --ammo GP | canister | smoke | CA | H2H``: the Advanced Game's GP point
effect fire (MBT 14.4; ``--weapon "HMG TTC"`` a vehicle's independent machinegun, MBT 14.1.2),
canister (MBT 14.4.5.2), smoke rounds (MBT 14.4.5.1, TARGET a hex), close assault (MBT 14.5) and
hand-to-hand combat (MBT 14.6) at the table, explained like an AP shot: the factors with their
sources, each modifier with its rule, the table line, the dice and the result. The modifiers come
from the same functions the game uses (:func:`hexwar.plugins.mbt.gp_fire.modifiers_of`,
:func:`~hexwar.plugins.mbt.close_assault.ca_modifiers_of`,
:func:`~hexwar.plugins.mbt.close_assault.h2h_modifiers_of`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import click

from hexwar.core.errors import HexwarError
from hexwar.core.types import Modifier

if TYPE_CHECKING:
    from hexwar.plugins.mbt.cards import Card
    from hexwar.plugins.mbt.machineguns import MachineGun


def _cards(firer: str, target: str, card_dirs: Sequence[str]) -> tuple[Card, Card]:
    from hexwar.plugins.mbt.cards import load_cards

    cards = load_cards(card_dirs)
    for name in (firer, target):
        if name not in cards:
            raise HexwarError(f"no card {name!r}; cards: {', '.join(sorted(cards))}")
    return cards[firer], cards[target]


def _mod_lines(mods: list[Modifier]) -> list[str]:
    return [f"  {m.value:+d}  {m.name}  ({m.rule})" for m in mods] or ["  (no modifier)"]


def _gp_defense(tc: Card, terrain: tuple[str, ...], status: str) -> tuple[int, str]:
    """MBT 14.4.3.1 a vehicle's card value; MBT 14.4.3.2 a leg or towed unit's by terrain
    (the best of a mixed hex, 14.4.3.2.4) and status."""
    from hexwar.plugins.mbt.advanced_tables import load_advanced

    if tc.kind == "vehicle":
        return tc.gp_defense, f"{tc.source('target.gp_defense') or 'card'} (MBT 14.4.3.1)"
    table = load_advanced().leg_defense
    found = [table[(tc.name, k, status)] for k in terrain if (tc.name, k, status) in table]
    if not found:
        return tc.gp_defense, "card (MBT 14.4.3.2)"
    best = max(found, key=lambda x: x.value)
    return best.value, f"{best.source} ({status} in {'/'.join(terrain)}, MBT 14.4.3.2)"


def advanced_fire(kind: str, firer: str, target: str, *, rng: int | None, terrain: str,
                  firer_moving: bool, target_moving: bool, overwatch: bool, acquisition: int,
                  brewup: int, hull_down: bool, dice: list[int], card_dirs: Sequence[str],
                  seed: int, fresh: bool, as_json: bool, weapon: str | None = None,
                  **flags: Any) -> None:
    """Resolve and print one GP shot, close assault or hand-to-hand combat (see the module);
    ``weapon``: the weapon a GP shot fires (the main gun unless named)."""
    from hexwar.plugins.mbt import gp_terrain
    from hexwar.plugins.mbt.cli import _ForcedDice

    d = _ForcedDice(dice, seed)
    if weapon is not None and kind != "GP":
        from hexwar.plugins.mbt.cards import load_cards

        cards = load_cards(card_dirs)
        if firer in cards:
            _weapon_error(cards[firer], weapon, kind)
    if kind == "GP" and gp_terrain.is_terrain_name(target):  # MBT 12.4.2: fire at terrain
        from hexwar.plugins.mbt.cards import load_cards

        cards = load_cards(card_dirs)
        if firer not in cards:
            raise HexwarError(f"no card {firer!r}; cards: {', '.join(sorted(cards))}")
        out, lines = _gp_terrain(cards[firer], target, rng, d, flags, weapon=weapon)
        _print(out, lines, d, dice, seed, fresh, as_json)
        return
    if kind == "SMOKE":  # MBT 14.4.5.1: TARGET is a hex, not a unit
        from hexwar.plugins.mbt.cards import load_cards

        cards = load_cards(card_dirs)
        if firer not in cards:
            raise HexwarError(f"no card {firer!r}; cards: {', '.join(sorted(cards))}")
        unused = {"--terrain": terrain != "clear", "--firer-moving": False,
                  "--target-moving": target_moving, "--acquisition": bool(acquisition),
                  "--brewup": bool(brewup), "--hull-down": hull_down,
                  **{"--" + k.replace("_", "-"): v != _FLAG_DEFAULTS.get(k, False)
                     for k, v in flags.items()}}
        out, lines = _smoke(cards[firer], target, rng, overwatch=overwatch, dice=dice,
                            unused=unused)
        if as_json:
            click.echo(json.dumps({**out, "rolls": []}, indent=2))
        else:
            click.echo("\n".join(lines))
        return
    if kind == "CANISTER" and gp_terrain.is_terrain_name(target):
        raise HexwarError(f"canister is fired at units, not at a {target} marker (MBT 14.4.5.2, "
                          "12.4.2: terrain takes GP rounds)")
    fc, tc = _cards(firer, target, card_dirs)
    kinds = tuple(t.strip() for t in terrain.split(",") if t.strip()) or ("clear",)
    if kind in ("GP", "CANISTER"):
        out, lines = _gp(fc, tc, rng, kinds, firer_moving, target_moving, overwatch, acquisition,
                         brewup, hull_down, d, flags, canister=kind == "CANISTER",
                         weapon_name=weapon)
    elif kind == "CA":
        out, lines = _ca(fc, tc, rng, target_moving, d, flags)
    else:
        out, lines = _h2h(fc, tc, rng, d, flags)
    _print(out, lines, d, dice, seed, fresh, as_json)


_KIND_WORDS = {"CANISTER": "canister", "SMOKE": "a smoke round", "CA": "a close assault",
               "H2H": "hand-to-hand combat"}


def _weapon_error(fc: Card, weapon: str, kind: str) -> None:
    """``--weapon`` with another --ammo than GP: only the main gun fires canister and smoke, and a
    close assault or hand-to-hand combat names no weapon."""
    from hexwar.plugins.mbt.machineguns import split

    if split(fc, f"{weapon}/GP") is not None:
        raise HexwarError(f"{fc.name}'s {weapon} is a machinegun: it fires GP point effect fire "
                          "only (MBT 14.1.2, 14.4; --ammo GP)")
    main = fc.main_gun
    if kind in ("CANISTER", "SMOKE") and main is not None and weapon == main.name:
        return
    rule = {"CANISTER": "MBT 14.4.5", "SMOKE": "MBT 14.4.5", "CA": "MBT 14.5.2.1",
            "H2H": "MBT 14.6"}[kind]
    raise HexwarError(f"--weapon {weapon!r} does not apply to {_KIND_WORDS[kind]} ({rule}: "
                      + ("the main gun's alternate ammunition)" if kind in ("CANISTER", "SMOKE")
                         else "no weapon is named)"))


def gp_weapon(fc: Card, name: str | None) -> tuple[str, MachineGun | None]:
    """The weapon a GP shot at the table fires: the main gun, or the one ``--weapon`` names (a
    vehicle's independent machinegun, MBT 14.1.2); refused when the card has no such weapon or
    it has no GP line (MBT 14.4.1)."""
    from hexwar.plugins.mbt.gp_fire import card_gp_range
    from hexwar.plugins.mbt.machineguns import machineguns, split

    if name is None:
        if fc.main_gun is None:
            raise HexwarError(f"{fc.name} has no main gun: name a machinegun with --weapon "
                              "(MBT 14.1.2)")
        return fc.main_gun.name, None
    if name not in {w.name for w in fc.weapons}:
        mgs = ", ".join(m.name for m in machineguns(fc)) or "none"
        raise HexwarError(f"{fc.name} has no weapon {name!r} (it has "
                          f"{', '.join(w.name for w in fc.weapons)}; independent machineguns: "
                          f"{mgs}, MBT 14.1.2)")
    w = fc.weapon(name)
    if card_gp_range(fc, w.name) is None:
        raise HexwarError(f"{fc.name}'s {w.name} has no GP line: it fires no GP point effect "
                          "fire (MBT 14.4.1)")
    return w.name, split(fc, f"{w.name}/GP")


def _mg_checks(fc: Card, mg: MachineGun, flags: dict[str, Any]) -> None:
    """What refuses a machinegun shot at the table: a suppressed vehicle fires none (MBT
    12.3.2), an "O" one needs the turret open (MBT 14.1.2.2), and overrun fire adds the MV
    factors of all of them, no one fired alone (MBT 14.7.2.2.1)."""
    if flags.get("suppressed"):
        raise HexwarError(f"a suppressed {fc.name} fires no independent machinegun (MBT 12.3.2)")
    if mg.needs_open and flags.get("firer_buttoned"):
        raise HexwarError(f"{fc.name}'s {mg.name} fires only with the turret open "
                          f"({mg.location}); the firer is buttoned (MBT 14.1.2.2)")
    if flags.get("overrun"):
        raise HexwarError("overrun fire adds the MV factors of the vehicle's usable machineguns to "
                          "its main gun's (MBT 14.7.2.2.1): name no --weapon")


def _mg_lines(fc: Card, mg: MachineGun, flags: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The machinegun's part of the printout: its size and location, and MBT 14.1.2.3 with a
    crew loss."""
    how = "turret open only" if mg.needs_open else "open or buttoned"
    out: dict[str, Any] = {"machinegun": {"size": mg.size, "location": mg.location,
                                          "arc": fc.weapon(mg.name).arc}}
    lines = [f"Machinegun: {mg.size} at {mg.location} ({how}; MBT 14.1.2.2), "
             f"arc {fc.weapon(mg.name).arc} (MBT 14.1.2.1, 14.2.1)"]
    if int(flags.get("crew_losses") or 0):
        note = (f"with a crew loss {fc.name} may not fire its main gun as well this Turn "
                "(MBT 14.1.2.3)")
        out["note"] = note
        lines.append(f"Note: {note}")
    return out, lines


def _print(out: dict[str, Any], lines: list[str], d: Any, dice: list[int], seed: int,
           fresh: bool, as_json: bool) -> None:
    from hexwar.plugins.mbt.cli import _dice_line

    if as_json:
        out.update(rolls=d.rolls, seed=seed)
        click.echo(json.dumps(out, indent=2))
        return
    for line in lines:
        click.echo(line)
    click.echo(_dice_line(d.rolls, given=len(dice) // 2, seed=seed, fresh=fresh))


def _gp_terrain(fc: Card, target: str, rng: int | None, d: Any,
                flags: dict[str, Any], *, weapon: str | None = None
                ) -> tuple[dict[str, Any], list[str]]:
    """MBT 12.4.2, 14.4.3.3: a GP shot at a terrain marker (TARGET names it: wire, block,
    temporary_bridge), with the general modifiers of MBT 14.4.2.1 and 14.4.2.4; ``weapon`` a
    vehicle's machinegun (MBT 14.4.3.3.1: any GP weapon that is not small arms)."""
    from hexwar.plugins.mbt import gp_fire, gp_terrain
    from hexwar.plugins.mbt.advanced_tables import load_advanced

    err = gp_terrain.kind_error(target)
    if err:
        raise HexwarError(err)
    if rng is None:
        raise HexwarError("GP fire needs --range (MBT 14.4.1)")
    name, mg = gp_weapon(fc, weapon)
    if mg is not None:
        _mg_checks(fc, mg, flags)
    if gp_fire.raw_weapon(fc, name).get("small_arms"):
        raise HexwarError(f"{fc.name}'s {name} is small arms and cannot fire at terrain "
                          "(MBT 14.4.3.3.1)")
    factor = gp_fire.card_gp_factor(fc, name, rng, False)
    if factor is None:
        raise HexwarError(f"{fc.name}'s {name} has no GP NM factor at range {rng} (MBT 14.4.1)")
    defense, dsrc = gp_terrain.terrain_defense()[target]
    mods = gp_fire.modifiers_of(gp_fire.GpSituation(
        range=rng, crew_losses=int(flags.get("crew_losses") or 0),
        suppressed=bool(flags.get("suppressed")), other_smoke=int(flags.get("smoke") or 0),
        target_vehicle=False, grade=str(flags.get("grade") or "average")))
    net = int(sum(m.value for m in mods))
    n, s, src = load_advanced().gp_thresholds(factor, defense)
    roll = d.d100("GP fire at terrain")
    result = gp_fire.outcome(roll + net, n, s)
    what = target.replace("_", " ")
    effect = (f"the {what} marker is destroyed and every ground unit in its hex suppressed "
              "(MBT 14.4.4.2.3.5, 14.4.3.3.3)" if result == "EF"
              else "no effect on terrain (MBT 14.4.4.2.2.3)")
    out = {"kind": "GP", "firer": fc.name, "weapon": name, "target": target,
           "range": rng, "gp_factor": factor, "gp_line": "NM", "gp_defense": defense,
           "defense_source": dsrc, "modifiers": [m.as_dict() for m in mods], "net": net,
           "roll": roll, "modified": roll + net, "n": n, "s": s, "table_source": src,
           "result": result, "effects": ["destroyed"] if result == "EF" else [],
           "rules": ["MBT 12.4.2", *(["MBT 14.1.2"] if mg else []), "MBT 14.4.4.1",
                     "MBT 14.4.4.2.3.5"]}
    mg_out, mg_lines = _mg_lines(fc, mg, flags) if mg is not None else ({}, [])
    out.update(mg_out)
    lines = ["Advanced Game: GP point effect fire at terrain (MBT 12.4.2, 14.4.3.3)",
             f"{fc.name} {name} GP at a {what} marker, range {rng}", *mg_lines,
             f"GP factor: {factor} (NM line, MBT 14.4.1)",
             f"GP defense: {defense} [{dsrc}] (MBT 14.4.3.3.1)", *_mod_lines(mods),
             f"Net modifier: {net:+d} (MBT 14.4.2)",
             f"GP COMBAT RESULTS TABLE {factor} vs {defense}: N up to {n}, S up to {s} [{src}] "
             "(MBT 14.4.4.1)",
             f"Dice {roll} {net:+d} = {roll + net}: {result}",
             f"Effect: {effect}"]
    return out, lines


def _canister_error(fc: Card, rng: int, overwatch: bool, overrun: bool) -> str | None:
    """MBT 14.4.5, 14.4.5.2: why this canister shot cannot be fired (the game's own checks)."""
    from hexwar.plugins.mbt.alternate_ammo import CANISTER, alternate, canister_range_error

    w = fc.main_gun
    if w is None or CANISTER not in alternate(fc, w.name):
        return f"{fc.name} has no canister ammunition (MBT 14.4.5: its card NOTES name none)"
    if overwatch or overrun:
        return (f"canister is fired with F or FM orders only, not {'OW' if overwatch else 'OR'} "
                "(MBT 14.4.5)")
    return canister_range_error(rng)


def _gp(fc: Card, tc: Card, rng: int | None, kinds: tuple[str, ...], firer_moving: bool,
        target_moving: bool, overwatch: bool, acquisition: int, brewup: int, hull_down: bool,
        d: Any, flags: dict[str, Any], *, canister: bool = False, weapon_name: str | None = None
        ) -> tuple[dict[str, Any], list[str]]:
    """GP point effect fire at a unit (MBT 14.4); ``canister``: the canister round of MBT
    14.4.5.2 (2-10 hexes, the canister modifiers of MBT 14.4.2.3, no explosive power);
    ``weapon_name``: the weapon fired, the main gun unless named (a vehicle's independent
    machinegun, MBT 14.1.2: its own GP line, the same modifiers)."""
    from hexwar.plugins.mbt import gp_fire
    from hexwar.plugins.mbt.advanced_tables import load_advanced

    what = "canister" if canister else "GP"
    if rng is None:
        raise HexwarError(f"{what} fire needs --range (MBT 14.4.1)")
    if canister:
        err = _canister_error(fc, rng, overwatch, bool(flags.get("overrun")))
        if err:
            raise HexwarError(err)
    if flags.get("overrun") and tc.kind not in ("leg", "towed"):
        raise HexwarError("overrun fire is at a dismounted leg or towed unit (MBT 14.7)")
    moving = firer_moving or bool(flags.get("overrun"))
    name, mg = gp_weapon(fc, weapon_name)
    if mg is not None:
        _mg_checks(fc, mg, flags)
    factor = gp_fire.card_gp_factor(fc, name, rng, moving)
    if factor is None:
        lo, hi = gp_fire.card_gp_range(fc, name) or (0, 0)
        if mg is not None and not lo <= rng <= hi:
            raise HexwarError(f"range {rng} is outside the {mg.name}'s range {lo}-{hi} "
                              "(MBT 14.4.1)")
        what_w = f"{fc.name}'s {name}" if weapon_name else fc.name
        raise HexwarError(f"{what_w} has no GP {'MV' if moving else 'NM'} factor at range {rng} "
                          "(MBT 14.4.1)")
    status = "FC" if flags.get("full_cover") else "MV" if target_moving else "NM"
    defense, dsrc = _gp_defense(tc, kinds, status)
    gs = gp_fire.GpSituation(
        range=rng, acquisition=acquisition, crew_losses=int(flags.get("crew_losses") or 0),
        suppressed=bool(flags.get("suppressed")), brewup=brewup,
        other_smoke=int(flags.get("smoke") or 0), overwatch=overwatch,
        target_vehicle=tc.kind == "vehicle", building=bool(set(kinds) & {"brick", "stone"}),
        woods="woods" in kinds, hull_down=hull_down, target_moving=target_moving,
        grade=str(flags.get("grade") or "average"), canister=canister)
    mods = gp_fire.modifiers_of(gs)
    if flags.get("overrun"):
        m = load_advanced().gp["overrun_fire"]
        mods.append(Modifier("overrun fire", m.value, f"MBT 14.7.2.2.2 [{m.source}]", stage=1))
    net = int(sum(m.value for m in mods))
    n, s, src = load_advanced().gp_thresholds(factor, defense)
    roll = d.d100("canister" if canister else "GP fire")
    result = gp_fire.outcome(roll + net, n, s)
    buttoned = bool(flags.get("buttoned"))
    if tc.kind == "vehicle":
        effects = gp_fire.effects_of(
            result, target_open=not buttoned, missile_in_flight=False,
            explosive=None if canister  # MBT 14.4.5.2: 14.4.4.2.3.3 does not apply
            else gp_fire.card_explosive_result(fc, name, defense),
            small_arms_far=bool(gp_fire.raw_weapon(fc, name).get("small_arms"))
            and rng > gp_fire.SMALL_ARMS_REACH)
        rule = "MBT 14.4.4.2"
    else:
        effects = {"N": [], "S": ["suppress"],
                   "EF": ["leg_elim" if flags.get("overrun") else "leg_ef"]}[result]
        rule = "MBT 14.7.2.2.2" if flags.get("overrun") else "MBT 14.4.4.2.3.4"
    words = {"suppress": "suppressed", "crew_loss": "one crew loss", "KO": "knocked out",
             "BU": "brewed up", "leg_ef": "a squad halved and suppressed, a half squad, team or "
                                          "towed unit eliminated",
             "leg_elim": "eliminated (a squad too)"}
    out = {"kind": "GP", "firer": fc.name, "weapon": name, "target": tc.name, "range": rng,
           "gp_factor": factor, "gp_line": "MV" if moving else "NM", "gp_defense": defense,
           "defense_source": dsrc, "modifiers": [m.as_dict() for m in mods], "net": net,
           "roll": roll, "modified": roll + net, "n": n, "s": s, "table_source": src,
           "result": result, "effects": effects,
           "rules": ["MBT 14.4", *(["MBT 14.4.5.2"] if canister else []),
                     *(["MBT 14.1.2"] if mg else []), rule]}
    if canister:
        out["ammo"] = "canister"
    mg_out, mg_lines = _mg_lines(fc, mg, flags) if mg is not None else ({}, [])
    out.update(mg_out)
    title = " - overrun fire (MBT 14.7.2.2)" if flags.get("overrun") else \
        " - canister (MBT 14.4.5.2)" if canister else ""
    lines = [f"Advanced Game: GP point effect fire (MBT 14.4){title}",
             f"{fc.name} {name} {what} at {tc.name}, range {rng}"
             + (" (canister reaches 2-10 hexes, MBT 14.4.5.2)" if canister else ""), *mg_lines,
             f"GP factor: {factor} ({out['gp_line']} line, MBT 14.4.1"
             + (": the weapon's own GP factor, MBT 14.4.5.2)" if canister else ")"),
             f"GP defense: {defense} [{dsrc}]", *_mod_lines(mods),
             f"Net modifier: {net:+d} (MBT 14.4.2)",
             f"GP COMBAT RESULTS TABLE {factor} vs {defense}: N up to {n}, S up to {s} [{src}] "
             "(MBT 14.4.4.1)",
             f"Roll: {roll:02d} {net:+d} = {roll + net} -> {result} (MBT 14.4.4.1)",
             f"Effect: {', '.join(words.get(e, e) for e in effects) or 'none'} ({rule})"]
    if canister and tc.kind == "vehicle" and result == "EF":
        lines.append("Canister never destroys a vehicle by explosive power (MBT 14.4.5.2, "
                     "14.4.4.2.3.3)")
    return out, lines


#: the GP/CA/H2H flags' defaults (a smoke round takes none of them)
_FLAG_DEFAULTS: dict[str, Any] = {"attackers": 1, "grade": "average", "target_grade": "average",
                                  "crew_losses": 0, "smoke": 0}


def _smoke(fc: Card, hex_label: str, rng: int | None, *, overwatch: bool, dice: list[int],
           unused: dict[str, bool]) -> tuple[dict[str, Any], list[str]]:
    """MBT 14.4.5, 14.4.5.1: a smoke round into the hex TARGET names: the card's smoke
    ammunition, F or FM orders, 2 hexes to the weapon's GP range; no dice, no damage. The arc,
    the friendly units in the hex and the line of sight are the table's to check."""
    from hexwar.plugins.mbt.alternate_ammo import (
        SMOKE,
        SMOKE_MIN_RANGE,
        alternate,
        smoke_range_error,
    )
    from hexwar.plugins.mbt.gp_fire import card_gp_range

    given = sorted(k for k, v in unused.items() if v)
    if given:
        raise HexwarError(f"{', '.join(given)} do not apply to a smoke round: it is fired at a "
                          "hex and does no damage (MBT 14.4.5.1)")
    if dice:
        raise HexwarError("a smoke round rolls no dice: it lands in the hex (MBT 14.4.5.1)")
    w = fc.main_gun
    if w is None or SMOKE not in alternate(fc, w.name):
        raise HexwarError(f"{fc.name} has no smoke ammunition (MBT 14.4.5: its card NOTES name "
                          "none)")
    if overwatch:
        raise HexwarError("smoke rounds are fired with F or FM orders only, not OW (MBT 14.4.5)")
    if rng is None:
        raise HexwarError("a smoke round needs --range, the hexes to the target hex "
                          "(MBT 14.4.5.1)")
    err = smoke_range_error(fc, w.name, rng, hex_label)
    if err:
        raise HexwarError(err)
    top = (card_gp_range(fc, w.name) or (0, 0))[1]
    out = {"kind": "smoke", "firer": fc.name, "weapon": w.name, "ammo": SMOKE, "hex": hex_label,
           "range": rng, "min_range": SMOKE_MIN_RANGE, "max_range": top,
           "marker": "smoke (ON)", "smoke": "other", "effects": [],
           "table_checks": ["firing arc", "no friendly unit in the hex",
                            "unblocked line of sight to the hex"],
           "rules": ["MBT 14.4.5", "MBT 14.4.5.1"]}
    lines = ["Advanced Game: smoke round (MBT 14.4.5.1)",
             f"{fc.name} {w.name} smoke at hex {hex_label}, range {rng}",
             f"Range: {SMOKE_MIN_RANGE} to {top} hexes (the {w.name}'s GP maximum range; "
             "MBT 14.4.5.1) - in range",
             "Orders: F or FM (MBT 14.4.5)",
             "Check at the table: the hex is in the weapon's firing arc, holds no friendly unit, "
             "and has an unblocked line of sight from the firer (MBT 14.4.5.1)",
             "No dice: the round lands in the hex (MBT 14.4.5.1)",
             f"Effect: a smoke (ON) marker ('other' smoke) is placed in {hex_label} when the step "
             "ends; no damage (MBT 14.4.5.1, 5.3)"]
    return out, lines


def _one_hex(rng: int | None, what: str, rule: str) -> None:
    if rng not in (None, 1):
        raise HexwarError(f"{what} is against an adjacent hex only, not range {rng} ({rule})")


def _ca(fc: Card, tc: Card, rng: int | None, target_moving: bool, d: Any,
        flags: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    from hexwar.plugins.mbt.advanced_tables import load_advanced
    from hexwar.plugins.mbt.close_assault import ca_modifiers_of, zero_top_armour
    from hexwar.plugins.mbt.gp_fire import card_gp_factor, outcome

    _one_hex(rng, "a close assault", "MBT 14.5.1")
    if fc.kind != "leg" or tc.kind != "vehicle":
        raise HexwarError("a close assault is a leg unit against a vehicle (MBT 14.5)")
    if flags.get("suppressed"):
        raise HexwarError(f"a suppressed {fc.name} cannot close-assault (MBT 14.5)")
    weapon = fc.main_gun
    factor = (card_gp_factor(fc, weapon.name, 1, True) if weapon else None) or 0
    mods = ca_modifiers_of(uphill=bool(flags.get("uphill")), moving=target_moving,
                           open_top=not flags.get("buttoned") or zero_top_armour(tc),
                           grade=str(flags.get("grade") or "average"))
    net = int(sum(m.value for m in mods))
    defense = tc.ca_defense
    n, s, src = load_advanced().gp_thresholds(max(1, factor), defense)
    roll = d.d100("close assault")
    result = outcome(roll + net, n, s)
    effect = {"N": "no effect", "S": "the vehicle is suppressed",
              "EF": "the vehicle is knocked out, a brewed-up wreck"}[result]
    out = {"kind": "CA", "attacker": fc.name, "target": tc.name, "gp_factor": factor,
           "ca_defense": defense, "modifiers": [m.as_dict() for m in mods], "net": net,
           "roll": roll, "modified": roll + net, "n": n, "s": s, "table_source": src,
           "result": result, "effect": effect, "rules": ["MBT 14.5.2", "MBT 14.5.4"]}
    lines = ["Advanced Game: close assault (MBT 14.5)",
             f"{fc.name} close-assaults {tc.name} in the adjacent hex",
             f"Attack: {factor} (the MV GP factor at one hex, MBT 14.5.2.1)",
             f"CA defense: {defense} [{tc.source('target.ca_defense') or 'card'}] (MBT 14.5.2.2)",
             *_mod_lines(mods), f"Net modifier: {net:+d} (MBT 14.5.3)",
             f"GP COMBAT RESULTS TABLE {factor} vs {defense}: N up to {n}, S up to {s} [{src}] "
             "(MBT 14.5.2.2)",
             f"Roll: {roll:02d} {net:+d} = {roll + net} -> {result}",
             f"Effect: {effect} (MBT 14.5.4)"]
    return out, lines


def _size(card: Card, half: bool) -> str:
    if card.kind == "towed":
        return "towed"
    if card.stacking < 2:
        return "team"
    return "half" if half else "squad"


def _h2h(fc: Card, tc: Card, rng: int | None, d: Any,
         flags: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    from hexwar.plugins.mbt.advanced_tables import load_advanced
    from hexwar.plugins.mbt.close_assault import h2h_modifiers_of

    _one_hex(rng, "hand-to-hand combat", "MBT 14.6.1")
    a, t = _size(fc, bool(flags.get("half"))), _size(tc, bool(flags.get("target_half")))
    if fc.kind != "leg" or a == "team" or tc.kind not in ("leg", "towed"):
        raise HexwarError("hand-to-hand combat is a squad or half squad against a leg or towed "
                          "unit (MBT 14.6)")
    mods = h2h_modifiers_of(
        defender_suppressed=bool(flags.get("target_suppressed")), uphill=bool(flags.get("uphill")),
        defender_losses=bool(flags.get("target_losses")), attackers=int(flags.get("attackers") or 1),
        defender_grade=str(flags.get("target_grade") or "average"),
        attacker_grade=str(flags.get("grade") or "average"))
    net = int(sum(m.value for m in mods))
    line = load_advanced().h2h.get((a, t))
    wins_to = line.value if line else 50
    src = line.source if line else "estimated"
    roll = d.d100("hand-to-hand")
    winner = "attacker" if roll + net <= wins_to else "defender"
    loser = tc.name if winner == "attacker" else fc.name
    out = {"kind": "H2H", "attacker": fc.name, "defender": tc.name, "row": [a, t],
           "attacker_wins_to": wins_to, "table_source": src,
           "modifiers": [m.as_dict() for m in mods], "net": net, "roll": roll,
           "modified": roll + net, "winner": winner, "rules": ["MBT 14.6.2", "MBT 14.6.2.2"]}
    lines = ["Advanced Game: hand-to-hand combat (MBT 14.6)",
             f"{fc.name} ({a}) attacks {tc.name} ({t}) hand to hand",
             f"HAND-TO-HAND COMBAT TABLE {a} vs {t}: the attacker wins up to {wins_to} [{src}] "
             "(MBT 14.6.2)", *_mod_lines(mods), f"Net modifier: {net:+d} (MBT 14.6.3)",
             f"Roll: {roll:02d} {net:+d} = {roll + net} -> the {winner} wins (MBT 14.6.2)",
             f"Effect: {loser} suffers an effective result (a squad halved and suppressed, "
             "anything smaller eliminated; MBT 14.6.2.2, 14.4.4.2.3.4)"]
    return out, lines
