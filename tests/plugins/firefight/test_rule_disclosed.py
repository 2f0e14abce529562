"""Every number the text discloses for (Firefight 11-28), exact and with its case (one place to audit);
estimates are marked as such."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest

from hexwar.plugins.firefight.rules import (
    artillery_mines,
    clgp,
    dedicated_battery,
    dummies,
    future_afvs,
    height,
    mines,
    mounted_combat,
    observation,
    overrun,
    scatter,
    short_halt,
    smoke,
    suppressive_fire,
)

DISCLOSED: list[tuple[str, Any, Any]] = [
    ("Firefight 11.1: personnel/vehicle in Clear", observation.observation_table()["clear"], (20, 60)),
    ("Firefight 11.1: Forest", observation.observation_table()["forest"], (5, 10)),
    ("Firefight 11.1: Town", observation.observation_table()["town"], (3, 5)),
    ("Firefight 11.1: Defilade", observation.observation_table()["defilade"], (3, 5)),
    ("Firefight 23.1: Improved Position: adjacent only",
     observation.observation_table()["improved_position"], (1, 1)),
    ("Firefight 12.0: at most six dummies", dummies.MAX_DUMMIES, 6),
    ("Firefight 13.21: Forest/Town block at ground + 20", height.WOODS_TOWN_EXTRA, 20),
    ("Firefight 14.0: smoke removed on 1 or 2", smoke.REMOVE_ON, (1, 2)),
    ("Firefight 14.1: smoke covers impact hex and adjacent", smoke.SMOKE_RADIUS, 1),
    ("Firefight 16.1: BMP: -4, four hexes", mounted_combat.CARRIERS["SU-BMP"][1:3], (-4, 4)),
    ("Firefight 16.2: M113: -1, range unchanged", mounted_combat.CARRIERS["US-M113"][1:3], (-1, None)),
    ("Firefight 17.0: Short Halt costs 1 MP", short_halt.SHORT_HALT_MP, 1.0),
    ("Firefight 17.12: Short Halt -2", short_halt.SHORT_HALT_MOD, -2),
    ("Firefight 17.0: M60A3 fires without halting", short_halt.STABILISED_MP, 0.0),
    ("Firefight 17.12: M60A3 -1", short_halt.STABILISED_MOD, -1),
    ("Firefight 18.0: ten Mine Points by default", mines.DEFAULT_POINTS, 10),
    ("Addenda: friendly units pass hexes of 5 or less", mines.FRIENDLY_SAFE_MAX, 5),
    ("Firefight 19.0: two turns less delay", suppressive_fire.DELAY_CUT, 2),
    ("Firefight 19.0: odd die: two hexes", suppressive_fire.suppressive_scatter(1), 2),
    ("Firefight 19.0: even die: one hex", suppressive_fire.suppressive_scatter(2), 1),
    ("Firefight 21.2: Priority Fire: no delay", dedicated_battery.table()["delay"]["priority"], 0),
    ("Firefight 21.3: Planned delay 1", dedicated_battery.dedicated_delay(True), 1),
    ("Firefight 21.3: Target of Opportunity delay 2", dedicated_battery.dedicated_delay(False), 2),
    ("Firefight 21.22: Priority impact AR 6", dedicated_battery.first_impact_pattern()[0], 6),
    ("Firefight 21.1 (Clarifications) a battery is two platoons",
     dedicated_battery.table()["battery"]["platoons"], 2),
    ("Firefight 22.0: planned fire scatters on 1-2", scatter.PLANNED_SCATTER, (1, 2)),
    ("Firefight 22.0: continuous fire scatters on 1", scatter.CONTINUOUS_SCATTER, (1,)),
    ("Firefight 25.0: artillery mines AR 8", artillery_mines.ARTILLERY_MINE_AR, 8),
    ("Firefight 25.0: impact hex and adjacent", artillery_mines.RADIUS, 1),
    ("Firefight 26.0: CLGP AR 9", clgp.CLGP_AR, 9),
    ("Firefight 27.12: M113Z: only a 2 hurts", future_afvs.afv_data()["m113z"]["ignore_rolls_from"], 3),
    ("Firefight 27.23: MICV mounted AR 7", future_afvs.afv_data()["micv_mounted"]["ar"], 7),
    ("Firefight 27.23 200 meters = four hexes", future_afvs.afv_data()["micv_mounted"]["max_range"], 4),
    ("Firefight 27.5: fire on the move -1", future_afvs.afv_data()["fire_on_move"]["modifier"], -1),
    ("Firefight 27.6: instant smoke: adjacent hex", future_afvs.afv_data()["instant_smoke"]["range"], 1),
    ("Firefight 28.5: Soviet Fireteam without RPG-7: AR 3", overrun.NO_RPG_AR, 3),
]


@pytest.mark.parametrize(("what", "value", "printed"), DISCLOSED, ids=[d[0] for d in DISCLOSED])
def test_disclosed_number(what: str, value: Any, printed: Any) -> None:
    assert value == printed, what


def test_future_afv_rows_are_the_text() -> None:
    rows = {(r["target"], tuple(r["lines"])): (r["modifier"], r["source"])
            for r in future_afvs.afv_data()["vulnerability"]["rows"]}
    assert rows == {
        ("US-MICV", ("*",)): (-1, "Firefight 27.22"),
        ("US-XM1", ("SU-RPG7", "SU-SPG9", "SU-BMP-gun")): (-3, "Firefight 27.32"),
        ("US-XM1", ("tank",)): (-2, "Firefight 27.32"),
        ("US-XM1", ("SU-Sagger",)): (-1, "Firefight 27.32"),
        ("SU-XMBT", ("*",)): (-1, "Firefight 27.42"),
    }


def test_every_data_value_has_provenance() -> None:
    """Each data file value names its case, or says ``estimated``."""
    ded = tomllib.loads(dedicated_battery.DATA.read_text(encoding="utf-8"))
    assert ded["first_impact"]["source"] == {"impact": "Firefight 21.22",
                                             "adjacent": "estimated", "two_away": "estimated"}
    assert set(ded["delay"]["source"]) == {"priority", "planned", "target_of_opportunity"}
    afv = future_afvs.afv_data()
    assert afv["fire_on_move"]["source"]["mp_cost"].startswith("estimated")
    assert afv["movement_allowance"]["source"]["US-XM1"] == "Firefight 27.31"
    obs = tomllib.loads(observation.DATA.read_text(encoding="utf-8"))["rows"]
    assert all(r["source"].startswith("Firefight ") for r in obs.values())
