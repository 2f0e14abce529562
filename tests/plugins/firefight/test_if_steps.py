"""The indirect-fire attack on one unit is a kit Pipeline of named steps (Firefight 8.6-8.65):
``firefight_if_steps`` edits it, and without edits it is the base order."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from hexwar.core.engine.game import Game
from hexwar.core.kit import Edit
from hexwar.core.markers import hookimpl
from hexwar.core.types import PluginManifest
from hexwar.plugins.firefight import indirect as IF
from hexwar.plugins.firefight.tables import ff_data
from hexwar.plugins.firefight.testing import mini_game
from hexwar.plugins.firefight.testing import unit_spec as U

UNITS = [U("us", "US-TM", "US", "1005"), U("su", "SU-TM", "SU", "1010")]


class _Dud:
    """After the CRT every indirect-fire result is no effect."""

    PLUGIN = PluginManifest(name="firefight.test_dud", system="firefight", kind="rule",
                            title="test dud", summary="test")

    def __init__(self) -> None:
        self.seen: list[str] = []

    def _dud(self, shot: IF.IfShot) -> None:
        self.seen.append(shot.result)
        shot.result = "-"

    @hookimpl
    def firefight_if_steps(self, game: Game) -> Sequence[Edit[IF.IfStep]]:
        return [Edit("insert_after", "crt", "dud", self._dud, rule="Firefight 8.6")]


def _hitting_ar() -> int:
    return next(a for a in range(1, 25) if ff_data().if_crt[("US", a, 12)] != "-")


def test_if_pipeline_base_steps(tmp_path: Path) -> None:
    g = mini_game(tmp_path, UNITS)
    assert IF.if_pipeline(g).names == ("dice", "crt", "apply", "report")
    out = IF.attack_unit(g, g.state.units["su"], _hitting_ar(), "US", "test", roll=12)
    assert out["result"] == ff_data().if_crt[("US", _hitting_ar(), 12)] != "-"


def test_if_steps_hook_edits_the_attack(tmp_path: Path) -> None:
    dud = _Dud()
    g = mini_game(tmp_path, UNITS, rules=["firefight.test_dud"], local_plugins=[dud])
    assert IF.if_pipeline(g).names == ("dice", "crt", "dud", "apply", "report")
    out = IF.attack_unit(g, g.state.units["su"], _hitting_ar(), "US", "test", roll=12)
    assert dud.seen == [ff_data().if_crt[("US", _hitting_ar(), 12)]]
    assert out["result"] == "-"
    ev = [e for e in g.log.events if e.get("what") == "indirect_fire"]
    assert ev and ev[-1]["result"] == "-"
