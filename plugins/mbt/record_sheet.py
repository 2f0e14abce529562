"""MBT 10.3, the RECORD SHEET: each side's record of its own combat units, read from the game
state (which is where the Advanced Game keeps what a player would write down).

One row per unit, in the columns of the rulebook's sample sheet: ORGANIZATION, UNIT IDENT, TYPE
(the card and its code), OFFICER, AMMUNITION / ARMAMENTS / ATTACHED / LOADS (attached weapons,
reactive armour, machineguns lost), FUEL (optional rule 17.3.3, not played: "-"), DAMAGE, SMOKE
(dischargers and exhaust smoke used), CREW LOSSES, TRANSPORT and NOTES (grade, doctrine
organization, half squad, suppression, full cover). The "Artillery Plots" and "Minefields" parts
are for optional rules only (MBT 10.3) and are left out.

A sheet holds only its own side's units (MBT 10.3: one sheet per side), so it never shows the
other side anything it could not see: ``hexwar mbt record SOURCE --side NATO`` prints NATO's
sheet of a scenario at set-up or of a saved game; without ``--side`` every side's (the umpire's).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.plugins.mbt.state import card_of

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit

#: the columns of the sheet, in the sample's order (MBT 10.3)
COLUMNS = ("organization", "ident", "type", "officer", "armaments", "fuel", "damage", "smoke",
           "crew_losses", "transport", "notes")
HEADINGS = {"organization": "ORGANIZATION", "ident": "UNIT IDENT", "type": "TYPE",
            "officer": "OFFICER", "armaments": "AMMUNITION, ARMAMENTS, ATTACHED, LOADS",
            "fuel": "FUEL", "damage": "DAMAGE", "smoke": "SMOKE", "crew_losses": "CREW LOSSES",
            "transport": "TRANSPORT", "notes": "NOTES"}


def _armaments(game: Game, u: Unit) -> str:
    from hexwar.plugins.mbt.attached import raw_weapon

    card = card_of(game, u)
    out = [f"att {w.name}" for w in card.weapons if raw_weapon(card, w.name).get("attached")]
    if u.state.get("reactive"):
        out.append(f"reactive armour ({u.state['reactive']})")
    return ", ".join(out) or "-"


def _damage(u: Unit) -> str:
    st = u.state
    dmg = st.get("damage") or {}
    out = []
    if dmg.get("compartment"):
        out.append(f"{dmg['compartment']} compartment")
    out += [k for k in ("track", "gun") if dmg.get(k)]
    out += [f"{w} lost" for w in st.get("mg_lost") or []]  # MBT 14.3.3.4.2
    if st.get("destroyed"):
        out.append({"KO": "knocked out", "BU": "brewed up"}.get(str(st["destroyed"]),
                                                                str(st["destroyed"])))
    return ", ".join(out) or "-"


def _smoke(u: Unit) -> str:
    out = []
    if u.state.get("ds_used"):
        out.append("DS used")  # MBT 12.6: once a game
    if u.state.get("ex_used"):
        out.append(f"EX used {u.state['ex_used']}")  # MBT 15.7.2: three times a game
    return ", ".join(out) or "-"


def _transport(u: Unit) -> str:
    st = u.state
    if st.get("carrying"):
        return "carries " + ", ".join(st["carrying"])  # MBT 15.3
    if st.get("mounted"):
        return f"in {st['mounted']}"
    if st.get("assigned_carrier"):
        return f"carrier {st['assigned_carrier']}"
    return "-"


def _notes(u: Unit) -> str:
    st = u.state
    out = [str(st.get("grade") or "average")]  # MBT 12.7
    if st.get("doctrine"):
        out.append(f"doctrine {st['doctrine']}")  # MBT 13.4.2.3
    if st.get("half"):
        out.append("half squad")  # MBT 12.5
    if st.get("suppressed"):
        out.append(f"suppressed ({st['suppressed']})")  # MBT 12.3
    if st.get("full_cover"):
        out.append("full cover")  # MBT 15.5
    return ", ".join(out)


def unit_row(game: Game, u: Unit) -> dict[str, Any]:
    """MBT 10.3: one unit's line of its side's RECORD SHEET."""
    card = card_of(game, u)
    return {"organization": str(u.state.get("organization") or "unattached"), "ident": u.id,
            "type": f"{card.name} ({card.id})" if card.id else card.name,
            "officer": str(u.state.get("officer") or "-"), "armaments": _armaments(game, u),
            "fuel": "-", "damage": _damage(u), "smoke": _smoke(u),
            "crew_losses": int(u.state.get("crew_losses") or 0), "transport": _transport(u),
            "notes": _notes(u)}


def record_sheet(game: Game, side: str) -> list[dict[str, Any]]:
    """MBT 10.3: ``side``'s RECORD SHEET, its own units only, grouped by organization."""
    units = game.state.units_of(side)
    order = {u.id: i for i, u in enumerate(units)}
    rows = [unit_row(game, u) for u in units]
    first: dict[str, int] = {}
    for r in rows:
        first.setdefault(r["organization"], order[r["ident"]])
    return sorted(rows, key=lambda r: (first[r["organization"]], order[r["ident"]]))


SHORT = {"officer": "officer", "armaments": "armaments", "damage": "damage", "smoke": "smoke",
         "crew_losses": "crew losses", "transport": "transport", "notes": "notes"}


def format_sheet(side: str, rows: list[dict[str, Any]]) -> str:
    """The sheet as text: one block per organization, one line per unit (the empty columns of a
    unit left out; ``--json`` has every column)."""
    lines = [f"RECORD SHEET: {side} (MBT 10.3)"]
    org = None
    for r in rows:
        if r["organization"] != org:
            org = r["organization"]
            lines.append(f"  {HEADINGS['organization']}: {org}")
        parts = [str(r["type"])] + [f"{SHORT[c]}: {r[c]}" for c in SHORT
                                    if r[c] not in ("-", 0)]
        lines.append(f"    {r['ident']:<8} " + " | ".join(parts))
    if len(lines) == 1:
        lines.append("  (no units)")
    return "\n".join(lines)


def record_command() -> Any:
    """``hexwar mbt record SOURCE [--side SIDE] [--json]`` (a click command)."""
    import json
    import sys

    import click

    from hexwar.core.errors import HexwarError

    @click.command("record")
    @click.argument("source")
    @click.option("--side", default=None, help="Print only this side's sheet (its own units).")
    @click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
    def record(source: str, side: str | None, as_json: bool) -> None:
        """Print the RECORD SHEET (MBT 10.3) of each side of SOURCE: a scenario (a file or a
        built-in name) at set-up, or a saved game or log as it stands."""
        from hexwar.core.cli import _load_situation

        try:
            game = _load_situation(source)
            if game.scenario.system != "mbt":
                raise HexwarError(f"{source} is a {game.scenario.system} game, not MBT (MBT 10.3)")
            sides = list(game.state.sides)
            if side is not None and side not in sides:
                raise HexwarError(f"unknown side {side!r} (sides: {', '.join(sides)})")
        except HexwarError as exc:  # bad input: exit 2 as the other table-side commands
            click.echo(f"error: {exc}", err=True)
            sys.exit(2)
        chosen = [side] if side is not None else sides
        sheets = {s: record_sheet(game, s) for s in chosen}
        if as_json:
            click.echo(json.dumps({"turn": game.state.turn, "sheets": sheets}, indent=2))
            return
        click.echo(f"Turn {game.state.turn}")
        for s, rows in sheets.items():
            click.echo(format_sheet(s, rows))

    return record
