"""The Advanced Game's equipment Actions offered in the option list (docs/decisions.md FPD-107):
the choices a soldier of the current Impulse has with the weapon units, rounds and rifle grenades
of his organization list, which the per-type option lists leave out (the Action types
``acquire``, ``load`` and ``grenade`` accept them when written by hand too).

* Firepower 11.1.6.2, 10.1: acquiring a weapon unit of his side in his hex whose crew is short;
  loading (Firepower 11.1.12) and firing the weapon unit he crews, at the hexes holding enemies.
* Firepower 11.1.6.5, 8.5: taking rounds for his own weapon from a friend in his hex when he has
  none of them left.
* Firepower 12.4.1.1: loading a rifle grenade he carries that must be loaded separately.

Each is checked by the caller like any listed Action (an illegal one is dropped).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game


def equipment_options(game: Game) -> list[dict[str, Any]]:
    """The equipment Actions of the current Impulse's soldiers (unchecked)."""
    from hexwar.plugins.firepower import weapon_units as wu
    from hexwar.plugins.firepower.ammunition import parse_item, split_version
    from hexwar.plugins.firepower.state import alive, data
    from hexwar.plugins.firepower.weapon_chart import chart

    ph = data(game).get("phase") or {}
    side = ph.get("side")
    units = game.state.units
    rows = chart()
    guns = [w for w in wu.seen(game) if w["side"] == side]
    enemy = sorted({game.board.label(u.hex) for u in units.values()
                    if u.side != side and u.hex is not None and alive(u)})
    out: list[dict[str, Any]] = []
    for uid in ph.get("active") or []:
        u = units[uid]
        if uid in ph.get("combat", []) or u.hex is None or not alive(u):
            continue
        here = game.board.label(u.hex)
        eq = dict(u.state.get("equipment") or {})
        crew_of = u.state.get("crew_of")
        for w in guns:
            row = rows[w["model"]]
            if crew_of is None and here == w["hex"] and len(w["crew"]) < row.crew:
                out.append({"unit": uid, "act": "acquire", "what": w["id"]})
            if crew_of != w["id"]:
                continue
            out.append({"unit": uid, "act": "load", "weapon": w["id"],
                        "ammo": "G" if "G" in row.types else row.types[0]})
            for h in enemy:
                for a in row.types:
                    ch: dict[str, Any] = {"unit": uid, "act": "grenade", "hex": h,
                                          "item": w["id"], "ammo": a}
                    if a == "H":
                        ch["as_g"] = True  # Firepower 12.3.5.2: H at soldiers as G
                    out.append(ch)
        model = str(u.state.get("model") or "")
        own_row = rows.get(model)
        if own_row is not None and "equipment" in u.state and set(own_row.types) - {"L"} and not any(
                (parse_item(str(k)) or ("",))[0] == model and int(n) > 0 for k, n in eq.items()):
            for f in sorted(units.values(), key=lambda x: x.id):
                if f.id == uid or f.side != u.side or f.hex != u.hex or not alive(f):
                    continue
                for k, n in sorted(dict(f.state.get("equipment") or {}).items()):
                    got = parse_item(str(k))
                    if got is not None and got[0] == model and int(n) > 0:
                        out.append({"unit": uid, "act": "acquire", "what": str(k),
                                    "from": f.id})
        for k, n in sorted(eq.items()):
            base, version = split_version(str(k))  # FPD-116: RGN1-G is RGN1's G version
            r = rows.get(base)
            if r is not None and r.cls in ("RGN", "HRG") and r.separate_load and int(n) > 0:
                load: dict[str, Any] = {"unit": uid, "act": "load", "item": base}
                if version is not None:
                    load["ammo"] = version
                out.append(load)
    return out
