"""``hexwar mbt forces SCENARIO``: a scenario's forces as TO&E organizations, each expanded into
its units and priced, and every printed value that the TO&E does not give (MBT Scenario Format C,
"Doing Your Own Scenarios" B.3; :mod:`hexwar.plugins.mbt.forces`). Exit status 1 when the check
reports something, as ``hexwar data check`` does."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from hexwar.core.errors import HexwarError


@click.command("forces")
@click.argument("scenario")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def forces_command(scenario: str, as_json: bool) -> None:
    """Expand and price the TO&E forces of SCENARIO (a file or a built-in name) and report every
    printed total, count or card code the TO&E does not give."""
    from hexwar.core.cli import _resolve_scenario_path
    from hexwar.core.scenario import Scenario
    from hexwar.plugins.mbt import forces
    from hexwar.plugins.mbt.toe.catalog import ToeError

    try:
        sc = Scenario.load(_resolve_scenario_path(scenario))
        bad = forces.problems(sc)
        if bad:
            raise click.ClickException("; ".join(str(p) for p in bad))
        sides: dict[str, Any] = {}
        for side, orgs in forces.side_forces(sc).items():
            rows: list[dict[str, Any]] = []
            for force in orgs:
                priced = forces.resolve(force)
                rows.append({"id": force.id, "name": force.name, "organization": priced.org.name,
                             "variant": priced.variant.label, "grade": force.grade,
                             "doctrine": priced.breakdown.doctrine_scope,
                             "points": priced.breakdown.points,
                             "units": [f"{c.n} x {c.label}" for c in priced.variant.components]})
            sides[side] = {"printed": sc.sides[side].get("points"), "organizations": rows}
        for side, pts in forces.side_points(sc).items():
            sides[side]["priced"] = pts
        units: list[dict[str, Any]] = [{"id": uid, "type": utype, "side": side, "state": state}
                                       for uid, utype, side, state in forces.expand(sc)]
        found = [str(f) for f in forces.findings(sc)]
    except (HexwarError, ToeError) as exc:
        raise click.ClickException(str(exc)) from None
    if as_json:
        click.echo(json.dumps({"scenario": sc.id, "sides": sides, "units": units,
                               "findings": found}, indent=2, ensure_ascii=False))
    else:
        for side, d in sides.items():
            click.echo(f"{side}: printed {d['printed']}, priced {d['priced']}")
            for r in d["organizations"]:
                click.echo(f"  {r['id']:>3} {r['name'] or r['organization']}: {r['organization']} "
                           f"{r['variant']}, {r['grade']}, doctrine {r['doctrine']}: {r['points']}")
                for line in r["units"]:
                    click.echo(f"        {line!s}")
        click.echo("units: " + ", ".join(str(u["id"]) for u in units))
        for f in found:
            click.echo(f"! {f}")
        if not found:
            click.echo("every printed total recomputes")
    if found:
        sys.exit(1)
