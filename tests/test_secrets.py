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


#: ``side_logged`` (tests/conftest.py): a game played through the CLI with its full log and one log
#: per side, seed 3, played once per process for the tests that read it
SideLogged = Callable[[str, tuple[str, ...]], tuple[Path, dict[str, Path]]]


@pytest.mark.parametrize(("scenario", "extra"), GAMES, ids=[g[0] for g in GAMES])
def test_side_log_holds_only_what_the_side_may_know(side_logged: SideLogged, scenario: str,
                                                    extra: tuple[str, ...]) -> None:
    full, sides = side_logged(scenario, extra)
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


def test_side_log_is_refused_by_the_save_and_log_loaders(side_logged: SideLogged) -> None:
    _, sides = side_logged("mbt:basic-a", ())
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


def test_log_command_prints_one_side(side_logged: SideLogged) -> None:
    full, sides = side_logged("mbt:basic-a", ())
    runner = CliRunner()
    umpire = runner.invoke(cli, ["log", str(full)])
    assert umpire.exit_code == 0 and "seed 3" in umpire.output.splitlines()[0]
    nato = runner.invoke(cli, ["log", str(full), "--side", "NATO"])
    assert nato.exit_code == 0, nato.output
    assert "seed" not in nato.output.splitlines()[0] and "NATO" in nato.output.splitlines()[0]
    # the log in words: NATO's secret orders are in its log, Soviet's only in the umpire's
    assert any(" Soviet marks an order: " in line for line in umpire.output.splitlines())
    assert any(" NATO marks an order: " in line for line in nato.output.splitlines())
    assert not any(" Soviet marks an order: " in line for line in nato.output.splitlines())
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


# -- issue 9, item 3 (the rest): a controller decides from its side's view alone -------------------

AI_MODULES = sorted([*(Path(__file__).parents[1] / "plugins").glob("*/ai.py"),
                     *(Path(__file__).parents[1] / "plugins").glob("*/rules/*_ai.py")])


def test_a_view_gives_no_game() -> None:
    """CORE-55: ``view.game`` is refused, for every side and the umpire."""
    from hexwar.core.testing import make_game

    game = make_game("mbt:basic-a", seed=1)
    for side in (*game.state.sides, None):
        view = game.view(side)
        with pytest.raises(AttributeError, match="no access to the game"):
            view.game  # noqa: B018
        assert not hasattr(view, "game")


@pytest.mark.parametrize("path", AI_MODULES, ids=[p.stem if p.parent.name == "rules" else p.parent.name
                                                  for p in AI_MODULES])
def test_every_ai_reads_only_its_view(path: Path) -> None:
    """No system's AI names the game, its state or the engine's back door to them."""
    text = path.read_text(encoding="utf-8")
    # and no way round the view: a decision's validator closes over the game (it checks a
    # choice against the whole state), and frames, globals and the collector reach anything
    for forbidden in ("view.game", "game_of", "._game", "engine.game", "game.state",
                      "state.units", "game.hooks", "game.dice", ".validate", "__closure__",
                      "cell_contents", "__globals__", "_getframe", "f_back", "gi_frame",
                      "import gc", "import inspect"):
        assert forbidden not in text, f"{path} uses {forbidden}"


def _firefight_hidden_game() -> Game:
    options = ("firefight.observation", "firefight.dummies")
    sc = load_and_validate(_resolve_scenario_path("firefight:scenario-7"), options=options)
    game = Game(sc, seed=3, options=options)
    controllers, _ = _controllers(game, "ai,ai", 3)
    while game.pending is not None and game.state.turn < 2:
        game.answer(controllers[game.pending.side].choose(game.pending, game.view(game.pending.side)))
    return game


def test_view_and_rules_refuse_what_the_side_cannot_see() -> None:
    """Firefight 11.0, 12.0 and the Scenario 7 draw: a US view names no face-down SU unit by its
    id, shows no dummy flag, and neither ``view.unit`` nor ``view.rules`` answers about a
    face-down, an undrawn or a made-up id (all refused in one wording)."""
    from hexwar.core.errors import RulesError

    game = _firefight_hidden_game()
    view = game.view("US")
    su = [u for u in game.state.units.values() if u.side == "SU"]
    down = [u for u in su if OBS.face_down(u) and u.hex is not None]
    undrawn = [u for u in su if u.state.get("not_drawn")]
    dummies = [u for u in down if u.state.get("dummy")]
    assert down and undrawn and dummies
    text = json.dumps(view.units)
    # a dummy is known for one only once revealed and removed (Firefight 12.0)
    assert all(u["state"].get("removed") for u in view.units.values() if u["state"].get("dummy"))
    assert not any(_names(text, u.id) for u in down + undrawn)
    own = next(u for u in game.state.units_of("US") if u.hex is not None)
    messages = set()
    for uid in [down[0].id, dummies[0].id, undrawn[0].id, "no-such-unit"]:
        with pytest.raises(RulesError) as unit_err:
            view.unit(uid)
        with pytest.raises(RulesError) as rules_err:
            view.rules.attack(own.id, uid, None, "direct")
        messages.add(str(unit_err.value).replace(uid, "X"))
        messages.add(str(rules_err.value).replace(uid, "X"))
    assert len(messages) == 1


def test_mbt_view_holds_no_secret_order_or_unseen_unit() -> None:
    """MBT 6.1, 6.2.1: an enemy unit out of sight is unknown to the view and to ``view.rules``;
    a seen one shows no order until it is revealed."""
    from hexwar.core.errors import RulesError

    sc = load_and_validate(_resolve_scenario_path("mbt:basic-a"))
    game = Game(sc, seed=3)
    controllers, _ = _controllers(game, "ai,ai", 3)
    checked = {"unseen": 0, "order": 0}
    while game.pending is not None and game.state.turn < 4:
        d = game.pending
        view = game.view(d.side)
        own = next((u for u in view.own_unit_objects() if u.hex is not None), None)
        for u in game.state.units.values():
            if u.side == d.side or u.hex is None:
                continue
            if u.id not in view.units:
                checked["unseen"] += 1
                with pytest.raises(RulesError):
                    view.unit(u.id)
                if own is not None:
                    with pytest.raises(RulesError):
                        view.rules.kill_probability(own.id, u.id, "gun", "AP")
            elif u.state.get("order") and not u.state.get("revealed"):
                checked["order"] += 1
                assert "order" not in view.unit(u.id).state
        game.answer(controllers[d.side].choose(d, view))
    assert checked["unseen"] and checked["order"]


class _Twin:
    """Asks the AI twice at each decision: once of the real game, once after ``alter`` changed
    what the side cannot see; the two answers must agree."""

    def __init__(self, ai: Any, game: Game, alter: Callable[[Game, str], Callable[[], None]]
                 ) -> None:
        self.ai, self.game, self.alter = ai, game, alter
        self.asked = 0

    def choose(self, decision: Any, view: Any) -> Any:
        import copy
        import random

        twin = copy.copy(self.ai)
        twin.rng = random.Random()
        twin.rng.setstate(self.ai.rng.getstate())
        choice = self.ai.choose(decision, view)
        undo = self.alter(self.game, decision.side)
        try:
            other = twin.choose(decision, self.game.view(decision.side))
        finally:
            undo()
        assert other == choice, f"decision {decision.kind} depends on what the side cannot see"
        self.asked += 1
        return choice


def _swap_dummies(game: Game, side: str) -> Callable[[], None]:
    """Every face-down enemy counter changes between dummy and real unit, claiming the same
    kind (Firefight 11.0, 12.0): only the hidden truth differs."""
    saved = []
    for u in game.state.units.values():
        if u.side != side and OBS.face_down(u):
            saved.append((u, dict(u.state)))
            u.state["claim"] = OBS.claimed_kind(u)
            u.state["dummy"] = not u.state.get("dummy")

    def undo() -> None:
        for u, st in saved:
            u.state.clear()
            u.state.update(st)
    return undo


def _hide_the_unseen(game: Game, side: str) -> Callable[[], None]:
    """MBT 6.1, 6.2.1: enemy units the side cannot see leave the map, and unrevealed enemy orders
    change."""
    from hexwar.plugins.mbt.sighting import seen_by_side

    saved = []
    for u in game.state.units.values():
        if u.side == side or u.hex is None:
            continue
        saved.append((u, u.hex, dict(u.state)))
        if not seen_by_side(game, side, u):
            u.hex = None
        elif not u.state.get("revealed") and u.state.get("order"):
            u.state["order"] = "M" if u.state["order"] != "M" else "OW"

    def undo() -> None:
        for u, h, st in saved:
            u.hex = h
            u.state.clear()
            u.state.update(st)
    return undo


@pytest.mark.parametrize(("scenario", "options", "side", "alter"), [
    ("firefight:scenario-7", ("firefight.observation", "firefight.dummies"), "US", _swap_dummies),
    ("firefight:scenario-7", ("firefight.observation", "firefight.dummies", "firefight.overrun",
                              "firefight.mines"), "SU", _swap_dummies),
    ("mbt:basic-a", (), "NATO", _hide_the_unseen),
    ("mbt:basic-a", (), "Soviet", _hide_the_unseen),
], ids=["ff-US", "ff-SU", "mbt-NATO", "mbt-Soviet"])
def test_ai_decides_alike_whatever_it_cannot_see(scenario: str, options: tuple[str, ...],
                                                 side: str, alter: Any) -> None:
    """The AI gives the same answer whether the enemy's face-down counters are dummies or not
    (Firefight 12.0), and whatever the unseen MBT units and secret orders are (MBT 6.1, 6.2.1)."""
    sc = load_and_validate(_resolve_scenario_path(scenario), options=options)
    game = Game(sc, seed=5, options=options)
    controllers, _ = _controllers(game, "ai,ai", 5)
    twin = _Twin(controllers[side], game, alter)
    controllers[side] = twin
    while game.pending is not None and game.state.turn <= 4:
        d = game.pending
        game.answer(controllers[d.side].choose(d, game.view(d.side)))
    assert twin.asked > 20


# -- issue 9, item 3 (the rest): a counter concealed again cannot be followed by its name ---------

def test_a_counter_concealed_again_gets_a_fresh_secret_name(tmp_path: Path) -> None:
    """Firefight 11.2, FFD-43: two revealed units of one hex turned face-down again get new
    anonymous names, never used before; the enemy's log shows the new names in their own order,
    no unit id, and the shuffle that paired names with units reaches no side."""
    g = mini_game(tmp_path, [U("a", "US-TM", "US", "1005"), U("b", "US-TM", "US", "1005"),
                             U("su", "SU-TM", "SU", "1015")], rules=["firefight.observation"])
    before = OBS.aliases(g)
    for uid in ("a", "b"):
        OBS.reveal(g, g.state.units[uid], "test", "Firefight 11.1")
    start = len(g.log.events)
    OBS.conceal(g, [g.state.units["b"], g.state.units["a"]])
    after = OBS.aliases(g)
    fresh = {after["a"], after["b"]}
    assert len(fresh) == 2 and fresh.isdisjoint(before.values())
    assert all(OBS.face_down(g.state.units[u]) for u in ("a", "b"))
    new = g.log.events[start:]
    su = side_events(new, "SU")
    shown = [e for e in su if e["type"] == "concealed"]
    assert sorted(e["counter"] for e in shown) == sorted(fresh)
    assert [e["counter"] for e in shown] == sorted(fresh, key=lambda a: int(a.split("-")[-1]))
    assert not any(_names(json.dumps(e), uid) for e in su for uid in ("a", "b"))
    shuffles = [e for e in new if e["type"] == "roll"]
    assert shuffles and all(e["visible_to"] == [] for e in shuffles)
    assert not [e for e in su if e["type"] == "roll"]
    # the owner is told which name is which
    us = {e["unit"]: e["counter"] for e in side_events(new, "US") if e.get("unit")}
    assert us == {"a": after["a"], "b": after["b"]}


# -- issue 9, item 3 (the rest): resume writes per-side logs too ------------------------------------

def test_resume_writes_each_sides_log_of_the_whole_game(side_logged: SideLogged,
                                                        tmp_path: Path) -> None:
    """``hexwar resume --log-side SIDE=FILE``: the side's log of a resumed game is the side's log
    of the uninterrupted game (the replayed history, then live play), with no seed; a side the
    game lacks and a side log on the save itself are refused before play."""
    _full, whole = side_logged("mbt:basic-a", ())
    sc = load_and_validate(_resolve_scenario_path("mbt:basic-a"))
    part = Game(sc, seed=3)
    controllers, _ = _controllers(part, "ai,ai", 3)
    for _ in range(50):
        d = part.pending
        assert d is not None
        part.answer(controllers[d.side].choose(d, part.view(d.side)))
    from hexwar.core.engine.record import save_game

    save = tmp_path / "game.json"
    save_game(part, save, players={s: "ai" for s in part.state.sides})
    runner = CliRunner()
    bad = runner.invoke(cli, ["resume", str(save), "--log-side", f"Martians={tmp_path / 'm.log'}"])
    assert bad.exit_code == 2 and "no side 'Martians'" in bad.output
    same = runner.invoke(cli, ["resume", str(save), "--log-side", f"NATO={save}"])
    assert same.exit_code == 2 and "--save" in same.output
    assert json.loads(save.read_text())["decisions"] == part.decisions  # nothing was played
    out = {s: tmp_path / f"resumed-{s}.log" for s in ("NATO", "Soviet")}
    result = runner.invoke(cli, ["resume", str(save), *[a for s, p in out.items()
                                                        for a in ("--log-side", f"{s}={p}")]])
    assert result.exit_code == 0, result.output
    for side, path in out.items():
        assert _records(path) == _records(whole[side])
        assert "seed" not in _records(path)[0]


# -- issue 9, item 3 (the rest): probing with illegal choices learns nothing -----------------------

def test_mbt_refusals_of_unseen_gone_and_made_up_targets_read_alike() -> None:
    """MBT 6.1, MBTD-40: a declaration at an enemy unit the side cannot see, at one that left the
    map unseen, and at an id no unit has, is refused in one wording (only the id differs)."""
    from hexwar.plugins.mbt.sighting import seen_by_side

    sc = load_and_validate(_resolve_scenario_path("mbt:basic-a"))
    game = Game(sc, seed=3)
    controllers, _ = _controllers(game, "ai,ai", 3)
    found = False
    while game.pending is not None and not found:
        d = game.pending
        if d.kind == "mbt.fire" and d.options and any(isinstance(o, dict) for o in d.options):
            shot = next(o for o in d.options if isinstance(o, dict))["shots"][0]
            enemies = [u for u in game.state.units.values() if u.side != d.side
                       and u.hex is not None and u.state.get("destroyed") is None]
            unseen = [u for u in enemies if not seen_by_side(game, d.side, u)]
            if len(unseen) >= 2:
                found = True
                gone = unseen[1]
                where, gone.hex = gone.hex, None  # it left the map where the side could not see
                try:
                    said = set()
                    for tid in (unseen[0].id, gone.id, "no-such-unit"):
                        with pytest.raises(Exception) as err:
                            d.check({"target": tid, "shots": [shot]})
                        said.add(str(err.value).replace(repr(tid), "X"))
                    assert len(said) == 1, said
                finally:
                    gone.hex = where
        game.answer(controllers[d.side].choose(d, game.view(d.side)))
    assert found


def test_firefight_refusals_of_targets_the_side_does_not_know_read_alike() -> None:
    """Firefight 11.21, 7.44 and the Scenario 7 draw (FFD-44): an attack on a face-down unit, an
    undrawn one, a passenger nobody sees and an id no unit has gets one refusal."""
    from hexwar.core.errors import RulesError

    options = ("firefight.observation", "firefight.dummies", "firefight.mounted_combat")
    sc = load_and_validate(_resolve_scenario_path("firefight:scenario-7"), options=options)
    game = Game(sc, seed=3, options=options)
    controllers, _ = _controllers(game, "ai,ai", 3)
    while game.pending is not None and game.state.turn < 1:
        game.answer(controllers[game.pending.side].choose(game.pending, game.view(game.pending.side)))
    su = [u for u in game.state.units.values() if u.side == "SU"]
    targets = [next(u.id for u in su if u.state.get("not_drawn")),
               next(u.id for u in su if OBS.face_down(u) and u.hex is not None), "no-such-unit"]
    passengers = [u.id for u in su if u.state.get("carrier")]
    targets += passengers[:1]
    firer = next(u for u in game.state.units_of("US") if u.hex is not None)
    said = set()
    for tid in targets:
        with pytest.raises(RulesError) as err:
            FI.check_attack(game, "US", [firer.id], tid, {}, "direct")
        said.add(str(err.value).replace(tid, "X"))
    assert len(said) == 1, said


# -- issue 9, item 11 (the rest): a save holds the panel files its board is built from -------------

def test_save_and_log_embed_panel_files_and_rebuild_without_them(tmp_path: Path) -> None:
    """CORE-57: a scenario whose board is a ``file =`` panel is played, its folder removed; the
    log and the save still replay and verify elsewhere from the embedded panel, whose text
    must match its recorded hash, and a verified record must embed every panel file."""
    import shutil

    src = tmp_path / "scenario"
    src.mkdir()
    mini_game(src, [U("us", "US-TM", "US", "1005"), U("su", "SU-TM", "SU", "1015")],
              hexes=[{"at": "1010", "terrain": "forest"}])
    away = tmp_path / "elsewhere"
    away.mkdir()
    log, save = away / "game.log", away / "game.json"
    runner = CliRunner()
    played = runner.invoke(cli, ["play", str(src / "scenario.toml"), "--players", "random,random",
                                 "--seed", "2", "--log", str(log), "--save", str(save)])
    assert played.exit_code == 0, played.output
    header = _records(log)[0]
    panel_text = (src / "panel.toml").read_text(encoding="utf-8")
    assert header["scenario_files"] == {"panel.toml": {
        "sha256": __import__("hashlib").sha256(panel_text.encode()).hexdigest(),
        "text": panel_text}}
    assert json.loads(save.read_text())["header"]["scenario_files"] == header["scenario_files"]
    shutil.rmtree(src)  # another machine: only the records
    for record in (log, save):
        ok = runner.invoke(cli, ["replay", str(record), "--verify", "--json"])
        assert ok.exit_code == 0, ok.output
        assert json.loads(ok.output)["verified"] is True

    def edited(change: Callable[[dict[str, Any]], None], name: str) -> Path:
        lines = log.read_text(encoding="utf-8").splitlines()
        head = json.loads(lines[0])
        change(head)
        out = away / name
        out.write_text("\n".join([json.dumps(head, sort_keys=True), *lines[1:]]) + "\n",
                       encoding="utf-8")
        return out

    def forged(head: dict[str, Any]) -> None:
        head["scenario_files"]["panel.toml"]["text"] += "\n# edited\n"

    bad = runner.invoke(cli, ["replay", str(edited(forged, "forged.log")), "--verify"])
    assert bad.exit_code != 0 and "does not match its recorded hash" in bad.output
    gone = runner.invoke(cli, ["replay", str(edited(lambda h: h.pop("scenario_files"),
                                                    "bare.log")), "--verify"])
    assert gone.exit_code != 0 and "does not embed the panel file 'panel.toml'" in gone.output


# -- issue 9, item 2 (the rest): keyed dice, a secret seed -----------------------------------------

def _keyed_words(seed: int, n: int) -> list[int]:
    """The documented construction (CORE-56), written out independently of core/dice.py."""
    import hashlib
    import struct

    key = hashlib.sha256(f"hexwar-dice-v1:{seed}".encode()).digest()
    words: list[int] = []
    block = 0
    while len(words) < n:
        digest = hashlib.blake2b(block.to_bytes(8, "big"), key=key).digest()
        words.extend(struct.unpack(">16I", digest))
        block += 1
    return words[:n]


def test_dice_are_blake2b_keyed_by_the_seed() -> None:
    """CORE-56: every face is a word of BLAKE2b keyed by the seed over a counter, reduced with
    rejection; so the public faces are outputs of a keyed function, never a generator state
    (a Mersenne Twister's state is rebuilt from 624 of its outputs)."""
    import random

    from hexwar.core.dice import Dice

    dice = Dice(20261201)
    faces = [dice.d10_zero("test") for _ in range(200)]
    words = [w for w in _keyed_words(20261201, 400) if w < (2 ** 32 // 10) * 10]
    assert faces == [w % 10 for w in words[:200]]
    twister = random.Random(20261201)
    assert faces != [twister.randrange(10) for _ in range(200)]
    assert faces != [Dice(20261202).d10_zero("test") for _ in range(200)]


def test_play_without_a_seed_draws_a_secret_one(tmp_path: Path) -> None:
    """CORE-56: a seed a player can guess gives away every roll; ``hexwar play`` without
    ``--seed`` draws a fresh, large one, recorded in the umpire's log only."""
    seeds = []
    for i in range(2):
        full, sides = tmp_path / f"full{i}.log", tmp_path / f"us{i}.log"
        result = CliRunner().invoke(cli, ["play", "mbt:basic-a", "--players", "random,random",
                                          "--log", str(full), "--log-side", f"NATO={sides}"])
        assert result.exit_code == 0, result.output
        seeds.append(_records(full)[0]["seed"])
        assert "seed" not in _records(sides)[0]
    assert seeds[0] != seeds[1] and all(s > 10 ** 9 for s in seeds)
