"""Every event a system writes reads as a sentence of its own (``hexwar_describe_event``), never as
the core's fallback "<type>: key value", and never says more than the record it describes."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import pytest

from hexwar.core.engine.game import Game
from hexwar.core.testing import played_game
from hexwar.core.words import context_game, fallback_sentence
from hexwar.plugins.firefight import words as FFW
from hexwar.plugins.firepower import words as FPW
from hexwar.plugins.mbt import words as MBW
from hexwar.plugins.mbt.rules import umpired as MB_UMPIRED

ROOT = Path(__file__).resolve().parents[2]
ALL_FF = tuple(f"firefight.{r}" for r in (
    "artillery_mines", "clgp", "dedicated_battery", "dummies", "future_afvs", "height",
    "improved_positions", "mines", "mounted_combat", "observation", "overrun", "overwatch",
    "scatter", "short_halt", "small_arms", "smoke", "suppressive_fire"))
#: short games that between them write most kinds of event of each system (the golden games'
#: scenarios; Firefight with every optional rule)
GAMES = [("firefight:scenario-7", ALL_FF), ("firefight:scenario-4", ALL_FF),
         ("firefight:scenario-2", ()), ("mbt:basic-a", ()), ("mbt:advanced-a", ()),
         ("mbt:advanced-a", ("mbt.command_control",)), ("firepower:basic", ())]
WORDS = {"firefight": FFW, "mbt": MBW, "firepower": FPW}
#: optional rules that describe their own events (their ``hexwar_describe_event``), not in the
#: system's words.py: MBT 24.0's instructions, re-targeted fire and umpire's reports
RULE_WORDS = {"mbt": (MB_UMPIRED.hexwar_describe_event,)}


def rule_described(system: str, record: dict[str, Any]) -> str | None:
    for describe in RULE_WORDS.get(system, ()):
        text = describe(None, record)
        if text is not None:
            return text
    return None
#: events whose type is computed, not a literal: the move-and-fire Actions of Firefight 17.0
#: and 27.5 (``rules/_common.run_move_fire``), named after the rule's mode
COMPUTED = {"firefight": {"short_halt", "on_the_move"}}


def _literal(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def emitted(system: str) -> dict[str, set[str]]:
    """event type -> the payload keys written with it, for every ``game.emit``, ``emit_about``,
    ``game.report`` and ``report_about`` call of the system's code with a literal type (a
    report is a ``result`` record, keyed ``result:<what>``)."""
    out: dict[str, set[str]] = {}
    for path in sorted((ROOT / "plugins" / system).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else \
                func.id if isinstance(func, ast.Name) else ""
            keys = {k.arg for k in node.keywords if k.arg and k.arg != "visible_to"}
            if name == "emit" and node.args:
                kind = _literal(node.args[0])
            elif name == "emit_about" and len(node.args) >= 2:
                kind = _literal(node.args[1])
            elif name == "report" and isinstance(func, ast.Attribute) and node.args:
                what = _literal(node.args[0])
                kind = f"result:{what}" if what else None
            elif name == "report_about" and len(node.args) >= 2:
                what = _literal(node.args[1])
                kind = f"result:{what}" if what else None
            else:
                continue
            if kind is not None:
                out.setdefault(kind, set()).update(keys)
    return out


def test_the_scan_finds_each_systems_events() -> None:
    # the checks below must look at something
    assert {"move", "result:fire", "revealed", "smoke_placed"} <= set(emitted("firefight"))
    assert {"moved", "damage", "result:AP point effect fire"} <= set(emitted("mbt"))
    assert {"action", "impulse", "result:melee"} <= set(emitted("firepower"))


def _synthetic(kind: str, keys: set[str]) -> dict[str, Any]:
    """A record of ``kind`` with each payload key the code writes, holding a stand-in value."""
    record: dict[str, Any] = {"turn": 2, "phase": "x.phase"}
    for key in keys:
        record[key] = "7" if key not in ("modifiers", "rules") else []
    if kind.startswith("result:"):
        record.update(type="result", what=kind.split(":", 1)[1])
    else:
        record["type"] = kind
    return record


@pytest.mark.parametrize("system", sorted(WORDS))
def test_every_event_type_the_code_writes_has_words(system: str) -> None:
    kinds = emitted(system)
    missing = sorted(k for k in kinds if not k.startswith("result:") and k not in WORDS[system].EVENTS
                     and rule_described(system, _synthetic(k, kinds[k])) is None)
    missing += sorted(COMPUTED.get(system, set()) - set(WORDS[system].EVENTS))
    assert not missing, f"{system} writes events its words.py does not describe: {missing}"
    for kind, keys in kinds.items():
        record = _synthetic(kind, keys)
        text = WORDS[system].describe_event(None, record) or rule_described(system, record)
        if kind.startswith("result:") and system == "firepower":
            continue  # a Firepower result's words need its procedure's summary (played below)
        assert text is not None and text != fallback_sentence(record), kind


def played(name: str, options: tuple[str, ...]) -> Game:
    """The game AI against AI, seed 1: the golden game of that scenario where there is one,
    played once per process (:func:`hexwar.core.testing.played_game`)."""
    game: Game = played_game(name, seed=1, options=options)
    return game


def _game_id(name: str, options: tuple[str, ...]) -> str:
    if options == ALL_FF:
        return f"{name}+all"
    return "+".join([name, *(o.split(".")[-1] for o in options)])


@pytest.mark.parametrize(("name", "options"), GAMES, ids=[_game_id(*g) for g in GAMES])
def test_no_recorded_event_falls_back_to_the_generic_sentence(name: str,
                                                              options: tuple[str, ...]) -> None:
    game = played(name, options)
    fallen = {}
    for side in (None, *game.state.sides):
        for record in game.log.for_side(side):
            text = game.hooks.describe_event(game, record)
            assert text, record
            if text == fallback_sentence(record):
                fallen.setdefault(record["type"], text)
    assert not fallen, f"records read as the fallback: {fallen}"


_ID = re.compile(r"[\w?][\w\-?]*")


@pytest.mark.parametrize(("name", "options"), GAMES[:1] + GAMES[3:],
                         ids=["firefight:scenario-7+all", "mbt:basic-a", "mbt:advanced-a",
                              "mbt:advanced-a+command_control", "firepower:basic"])
def test_a_sides_words_name_no_unit_its_record_does_not(name: str, options: tuple[str, ...]) -> None:
    """The sentence for a side's record names only the units the record names (a face-down
    counter stays anonymous, an unseen unit unnamed)."""
    game = played(name, options)
    ids = set(game.state.units)
    for side in game.state.sides:
        for record in game.log.for_side(side):
            text = game.hooks.describe_event(game, record)
            named = {t for t in _ID.findall(text) if t in ids}
            shown = json.dumps(record)
            leaked = sorted(u for u in named if f'"{u}"' not in shown and u not in shown)
            assert not leaked, f"{side}: {text!r} names {leaked}, absent from {record}"


def test_a_face_down_counter_keeps_its_anonymous_name() -> None:
    game = played(*GAMES[0])
    record = {"type": "result", "what": "fire", "firer": "?SU-3", "target": "m60a1-us1",
              "weapon": "SU-T62", "range": 12, "ar": 4, "roll": 7, "result": "S", "applied": "S",
              "mode": "direct", "filters": [], "modifiers": [],
              "rules": ["Firefight 6.0", "Firefight 6.7"]}
    text = game.hooks.describe_event(game, record)
    assert text.startswith("counter ?SU-3 fires with SU-T62 at ")
    assert "T62" not in text.split(" at ")[0].replace("SU-T62", "")


def test_ff_fire_reads_as_the_issue_shows_it() -> None:
    """The shape the web table's running log shows: firer, target, range, Attack Rating, dice,
    result and the case numbers (Firefight 6.0, 6.7)."""
    game = played(*GAMES[2])
    record = {"type": "result", "what": "fire", "firer": "t62-su1", "target": "m113-us1",
              "weapon": "SU-T62", "range": 12, "ar": 4, "base": 4, "roll": 7, "result": "S",
              "applied": "S (no further effect Firefight 6.57)", "mode": "direct", "filters": [],
              "modifiers": [], "rules": ["Firefight 6.0", "Firefight 6.7"]}
    assert game.hooks.describe_event(game, record) == (
        "T62 t62-su1 fires at M113 m113-us1, range 12, attack rating 4, dice 7: "
        "S (no further effect Firefight 6.57) [Firefight 6.0, Firefight 6.7]")


def test_a_log_without_its_game_reads_the_same_from_its_header() -> None:
    game = played(*GAMES[3])
    header = game.log.events[0]
    again = context_game(header)
    assert again is not None
    for record in game.log.events[1:200]:
        assert again.hooks.describe_event(again, record) == game.hooks.describe_event(game, record)


def test_mbt_hit_and_damage_in_words() -> None:
    game = played(*GAMES[3])
    hit = next(r for r in game.log.events if r["type"] == "result"
               and r["what"] == "AP point effect fire" and r["result"]["hits"])
    text = game.hooks.describe_event(game, hit)
    assert f"hit number {hit['hit_number']}" in text and f"dice {hit['roll']}" in text
    assert "MBT 7.4" in text and "{" not in text
    ko = {"type": "damage", "unit": "S1", "damage": {"gun": True, "track": False,
                                                     "compartment": None},
          "destroyed": None, "rule": "MBT 7.4.7"}
    assert game.hooks.describe_event(game, ko).endswith("is damaged: gun [MBT 7.4.7]")


def test_firepower_shots_in_words() -> None:
    game = played(*GAMES[-1])  # Firepower
    shot = next(r for r in game.log.events if r["type"] == "result"
                and r["result"].get("eliminated"))
    text = game.hooks.describe_event(game, shot)
    victim = shot["result"]["eliminated"][0]
    assert f"{victim} eliminated" in text and "Firepower 6.3.1" in text and "{" not in text


def test_firepower_grenades_and_melee_in_words() -> None:
    game = played(*GAMES[-1])  # Firepower
    grenade = {"type": "result", "what": "grenade by A1", "rules": ["Firepower 6.3.6.3.2"],
               "modifiers": [], "result": {
                   "kind": "grenade", "firer": "A1", "weapon": "HGN", "mode": "throw",
                   "range": 3, "hit_number": 6, "targets": [], "target_hex": "1E5",
                   "modifiers": {}, "shots": [], "throw_roll": 8, "throw_modified": 9,
                   "outcome": "spread", "impact": "1E6", "spread_roll": 4,
                   "blast": [{"unit": "B2", "roll": 3, "modified": 3, "result": "eliminated"}],
                   "eliminated": ["B2"], "stunned": [], "suppressed": []}}
    text = game.hooks.describe_event(game, grenade)
    assert text.startswith("LMG A1 throws a grenade at 1E5, range 3, hit number 6, throw 8->9")
    assert "lands in 1E6 (spread roll 4), blast PST B2 3->3 eliminated" in text
    assert text.endswith("[Firepower 6.3.6.3.2]")
    melee = {"type": "result", "what": "melee", "rules": ["Firepower 6.5.1", "Firepower 6.5.2"],
             "modifiers": [{"name": "more attackers", "value": 1, "rule": "Firepower 6.5.2"}],
             "result": {"roll": 7, "winner": "attackers", "attackers": ["A3"],
                        "defenders": ["B4"], "hex": "2F15"}}
    assert game.hooks.describe_event(game, melee) == (
        "melee in 2F15: RFL A3 against RFL B4 (more attackers +1), die 7: attackers win "
        "[Firepower 6.5.1, Firepower 6.5.2]")
