"""What a side may know, and nothing more (issue 9, "Secrets that leak"): per-side logs
(``play --log-side``, ``hexwar log --side``) without the seed or the other side's secrets, and the
Firefight and MBT events and messages that named units a side cannot see."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from hexwar.core.cli import _controllers, _resolve_scenario_path, cli
from hexwar.core.engine.game import Game
from hexwar.core.engine.record import (
    SIDE_LOG_FORMAT,
    EventLog,
    load_log,
    load_save,
    load_saved,
    side_events,
)
from hexwar.core.errors import DataError
from hexwar.core.scenario import load_and_validate
from hexwar.plugins.firefight import fire as FI
from hexwar.plugins.firefight import sequence as SEQ
from hexwar.plugins.firefight.rules import observation as OBS
from hexwar.plugins.firefight.testing import mini_game
from hexwar.plugins.firefight.testing import unit_spec as U

FF_HIDDEN = ("--option", "firefight.observation", "--option", "firefight.dummies")
#: every system with its hidden-information rules: (scenario, extra play arguments)
GAMES = [("firefight:scenario-7", FF_HIDDEN), ("mbt:basic-a", ()), ("firepower:basic", ())]


def _records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _play_with_side_logs(tmp_path: Path, scenario: str, extra: tuple[str, ...]
                         ) -> tuple[Path, dict[str, Path]]:
    """Play ``scenario`` AI against AI through the CLI with the full log and one log per side."""
    sc = load_and_validate(_resolve_scenario_path(scenario))
    full = tmp_path / "full.log"
    sides = {s: tmp_path / f"{s}.log" for s in sc.side_names()}
    args = ["play", scenario, "--seed", "3", "--log", str(full), *extra]
    for side, path in sides.items():
        args += ["--log-side", f"{side}={path}"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    return full, sides


@pytest.mark.parametrize(("scenario", "extra"), GAMES, ids=[g[0] for g in GAMES])
def test_side_log_holds_only_what_the_side_may_know(tmp_path: Path, scenario: str,
                                                    extra: tuple[str, ...]) -> None:
    full, sides = _play_with_side_logs(tmp_path, scenario, extra)
    umpire = _records(full)
    assert "seed" in umpire[0]  # the umpire's log keeps the seed
    saved = load_log(full)
    everything = [{"type": "header", **saved.header}, *saved.events]
    for side, path in sides.items():
        records = _records(path)
        head, end = records[0], records[-1]
        assert head["format"] == SIDE_LOG_FORMAT and head["side"] == side
        assert "seed" not in head and all("seed" not in r for r in records)
        assert end == {"type": "end", "records": len(records) - 1}
        # exactly the records the side may see of the full log, as EventLog.for_side shows them
        assert records[:-1] == side_events(everything, side)
        decisions = [r for r in records if r["type"] == "decision"]
        assert decisions and all(d["side"] == side for d in decisions)  # no secret orders
        assert all("hash" not in d for d in decisions)  # a digest of the whole state
        for r in records:
            assert "visible_to" not in r or side in r["visible_to"]


def test_side_log_is_refused_by_the_save_and_log_loaders(tmp_path: Path) -> None:
    _, sides = _play_with_side_logs(tmp_path, "mbt:basic-a", ())
    path = sides["NATO"]
    for loader in (load_saved, load_log, load_save):
        with pytest.raises(DataError, match="one side's log"):
            loader(path)
    result = CliRunner().invoke(cli, ["replay", str(path), "--verify"])
    assert result.exit_code != 0 and "one side's log" in result.output


def test_side_view_header_has_no_seed(tmp_path: Path) -> None:
    g = mini_game(tmp_path, [U("us", "US-TM", "US", "1005"), U("su", "SU-TM", "SU", "1015")],
                  seed=1234)
    assert g.view(None).header["seed"] == 1234
    for side in ("US", "SU"):
        view = g.view(side)
        assert "seed" not in view.header and view.header["side"] == side
        assert all("seed" not in e for e in view.events())


def test_log_command_prints_one_side(tmp_path: Path) -> None:
    full, sides = _play_with_side_logs(tmp_path, "mbt:basic-a", ())
    runner = CliRunner()
    umpire = runner.invoke(cli, ["log", str(full)])
    assert umpire.exit_code == 0 and "seed 3" in umpire.output.splitlines()[0]
    nato = runner.invoke(cli, ["log", str(full), "--side", "NATO"])
    assert nato.exit_code == 0, nato.output
    assert "seed" not in nato.output.splitlines()[0] and "NATO" in nato.output.splitlines()[0]
    assert any(" decision " in line and "side=NATO" in line for line in nato.output.splitlines())
    assert not any("side=Soviet" in line and " decision " in line
                   for line in nato.output.splitlines())
    as_json = runner.invoke(cli, ["log", str(full), "--side", "NATO", "--json"])
    assert [json.loads(line) for line in as_json.output.splitlines()] == _records(sides["NATO"])[:-1]
    own = runner.invoke(cli, ["log", str(sides["NATO"])])
    assert own.exit_code == 0 and own.output == nato.output
    wrong = runner.invoke(cli, ["log", str(full), "--side", "Martians"])
    assert wrong.exit_code == 2 and "no side 'Martians'" in wrong.output
    assert runner.invoke(cli, ["log", str(sides["NATO"]), "--side", "Soviet"]).exit_code == 2


def test_log_side_option_is_checked_before_play(tmp_path: Path) -> None:
    runner = CliRunner()
    bad = runner.invoke(cli, ["play", "mbt:basic-a", "--log-side", "Martians=" + str(tmp_path / "x")])
    assert bad.exit_code == 2 and "no side 'Martians'" in bad.output
    assert not (tmp_path / "x").exists()
    form = runner.invoke(cli, ["play", "mbt:basic-a", "--log-side", "NATO"])
    assert form.exit_code == 2 and "SIDE=FILE" in form.output


# -- the attacks: reading ids of units a side cannot see from its log -------------------------


class _Watch(EventLog):
    """An event log that checks each record, as it is appended, against what each side may see
    at that moment (``check(game, record, side)``)."""

    def __init__(self, check: Callable[[Game, dict[str, Any], str], None]) -> None:
        super().__init__()
        self.game: Game | None = None
        self.check = check

    def append(self, event: dict[str, Any], *, visible_to: tuple[str, ...] | None) -> None:
        super().append(event, visible_to=visible_to)
        if self.game is None or event.get("type") == "header":
            return
        for side in self.game.state.sides:
            shown = [r for r in side_events([self.events[-1]], side)]
            if shown:
                self.check(self.game, shown[0], side)


def _play_watched(scenario: str, options: tuple[str, ...], seed: int,
                  check: Callable[[Game, dict[str, Any], str], None]) -> Game:
    sc = load_and_validate(_resolve_scenario_path(scenario), options=options)
    log = _Watch(check)
    game = Game(sc, seed=seed, options=options, log=log)
    log.game = game
    controllers, _ = _controllers(game, "ai,ai", seed)
    game.play(controllers)
    return game


def _names(text: str, uid: str) -> bool:
    """Does ``text`` name ``uid`` (as a whole id, in a field or inside prose such as a roll's
    purpose)?"""
    return uid in text and re.search(rf"(?<![\w-]){re.escape(uid)}(?![\w-])", text) is not None


def _hidden_from(game: Game, side: str) -> set[str]:
    """Real ids of the enemy units ``side`` may not name now: face-down, or carried unseen."""
    return {u.id for u in game.state.units.values() if u.side != side and u.hex is not None
            and (OBS.face_down(u) or (u.state.get("carrier") and not u.state.get("r16_exposed")))}


def test_firefight_side_never_reads_the_real_id_of_a_face_down_enemy() -> None:
    """Firefight 11.0, 12.0: Scenarios 4 and 7 with observation, dummies and mounted combat;
    every record a side may see names face-down and carried enemy units only by their anonymous
    counters, and its view (units, the passengers of face-up vehicles included) likewise."""
    leaks: list[str] = []

    def check(game: Game, record: dict[str, Any], side: str) -> None:
        text = json.dumps(record)
        for uid in _hidden_from(game, side):
            if _names(text, uid):
                leaks.append(f"{side} reads {uid} in {record}")

    def view_check(game: Game) -> None:
        for side in game.state.sides:
            text = json.dumps(game.view(side).units)
            leaks.extend(f"{side} view shows {uid}" for uid in _hidden_from(game, side)
                         if _names(text, uid))

    options = ("firefight.observation", "firefight.dummies", "firefight.mounted_combat")
    for name in ("firefight:scenario-4", "firefight:scenario-7"):
        sc = load_and_validate(_resolve_scenario_path(name), options=options)
        log = _Watch(check)
        game = Game(sc, seed=1, options=options, log=log)
        log.game = game
        controllers, _ = _controllers(game, "ai,ai", 1)
        game.play(controllers, on_decision=view_check)
    assert leaks == []


def test_face_up_vehicle_does_not_list_hidden_passengers(tmp_path: Path) -> None:
    """Nobody sees inside an enemy vehicle (Firefight 11.0): a face-up M113 or BMP shows no
    passenger ids to the other side; its owner sees them."""
    g = mini_game(tmp_path, [U("us", "US-TM", "US", "1005"), U("su", "SU-TM", "SU", "1015"),
                             U("m113", "US-M113", "US", "2005"),
                             U("us-p", "US-TM", "US", "2005", carrier="m113")],
                  rules=["firefight.observation", "firefight.mounted_combat"])
    OBS.reveal(g, g.state.units["m113"], "test", "Firefight 11.1")
    assert "us-p" in g.state.units["m113"].state["passengers"]
    su = g.view("SU").units
    assert "m113" in su and "us-p" not in json.dumps(su)
    assert g.view("US").units["m113"]["state"]["passengers"] == ["us-p"]


def test_stacking_violation_of_the_movement_phase_is_anonymous() -> None:
    """The same, in the phase itself: every ``stacking_violation`` a side reads in a played game
    names no face-down enemy unit (checked as each record is written)."""
    leaks: list[str] = []

    def check(game: Game, record: dict[str, Any], side: str) -> None:
        if record["type"] == "stacking_violation":
            text = json.dumps(record)
            leaks.extend(uid for uid in _hidden_from(game, side) if _names(text, uid))

    from unittest import mock

    real = SEQ.stacking_violations

    def overstacked(game: Game) -> dict[str, list[str]]:
        # force a report every Movement Phase: every unit of each side, on one "hex"
        found = real(game)
        for side in game.state.sides:
            ids = [u.id for u in game.state.units_of(side) if u.hex is not None]
            if len(ids) > 4:
                found[f"{side}@test"] = ids
        return found

    with mock.patch.object(SEQ, "stacking_violations", overstacked):
        _play_watched("firefight:scenario-7", ("firefight.observation", "firefight.dummies"), 3,
                      check)
    assert leaks == []


def test_refusal_of_a_face_down_target_reads_as_that_of_an_undrawn_one() -> None:
    """Firefight 11.21 and the Scenario 7 force draw: naming the real id of a face-down unit and
    of an undrawn one gets the same refusal, so probing does not tell which units are on the
    map."""
    options = ("firefight.observation", "firefight.dummies")
    sc = load_and_validate(_resolve_scenario_path("firefight:scenario-7"), options=options)
    game = Game(sc, seed=3, options=options)
    controllers, _ = _controllers(game, "ai,ai", 3)
    while game.pending is not None and game.state.turn < 1:
        game.answer(controllers[game.pending.side].choose(game.pending, game.view(game.pending.side)))
    units = game.state.units.values()
    undrawn = next(u for u in units if u.side == "SU" and u.state.get("not_drawn"))
    hidden = next(u for u in units if u.side == "SU" and OBS.face_down(u) and u.hex is not None
                  and not u.state.get("carrier"))
    FI.invalidate_targets(game)
    a = FI.target_problem(game, "US", undrawn, "direct")
    b = FI.target_problem(game, "US", hidden, "direct")
    assert a is not None and a == b


def test_mbt_order_and_fire_announcements_reach_only_sides_that_see_the_unit() -> None:
    """MBT 6.1, 7.3.1, 7.3.2: ``order_revealed`` and ``declared`` are read only by the owner and
    by a side that sees the unit (every firer) at that moment."""
    from hexwar.plugins.mbt.sighting import seen_by_side

    leaks: list[str] = []
    counted = {"order_revealed": 0, "declared": 0}

    def check(game: Game, record: dict[str, Any], side: str) -> None:
        kind = record["type"]
        if kind not in counted:
            return
        counted[kind] += 1
        ids = [record["unit"]] if kind == "order_revealed" else record["firers"]
        for uid in ids:
            u = game.state.units[uid]
            if u.side != side and not seen_by_side(game, side, u):
                leaks.append(f"{side} hears {kind} of unseen {uid}")

    for scenario in ("mbt:basic-a", "mbt:basic-c"):
        _play_watched(scenario, (), 3, check)
    assert counted["order_revealed"] and counted["declared"]
    assert leaks == []


def test_hidden_processes_roll_in_secret() -> None:
    """Issue 9, item 1: the rolls that shuffle the anonymous names of face-down counters
    (Firefight 11.0) reach no side, and a force draw (Firefight Scenarios 7, 9) only the drawing
    side, so no side can rebuild either from its log."""
    from hexwar.core.testing import make_game

    game = make_game("firefight:scenario-7", seed=1,
                     options=("firefight.observation", "firefight.dummies"))
    rolls = [e for e in game.log.events if e["type"] == "roll"]
    shuffle = [e for e in rolls if e["purpose"] == "counter shuffle"]
    draws = [e for e in rolls if e["purpose"].endswith("force draw")]
    assert shuffle and draws
    for side in game.state.sides:
        seen = {e["purpose"] for e in game.log.for_side(side) if e["type"] == "roll"}
        assert "counter shuffle" not in seen
        assert all(p.startswith(side) for p in seen if p.endswith("force draw"))
    assert all(e["visible_to"] == [] for e in shuffle)
    assert all(e["visible_to"] == [e["purpose"].split()[0]] for e in draws)
