"""A record names the user data packs it was played with and refuses other data (CORE-100)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import hexwar.plugins.mbt as mbt_pkg
from hexwar.core.engine.controllers import RandomController
from hexwar.core.engine.game import Game
from hexwar.core.engine.record import load_saved, save_game
from hexwar.core.engine.replay import rebuild
from hexwar.core.errors import DataError
from hexwar.core.scenario import Scenario

PKG = Path(mbt_pkg.__file__).parent


def _scenario_with_cards(tmp_path: Path) -> tuple[Path, Path]:
    """basic-a beside a card folder of its own (the T-80A's movement allowance lowered)."""
    cards = tmp_path / "mycards"
    cards.mkdir()
    text = (PKG / "data" / "cards" / "ussr-1a_t-80a.toml").read_text(encoding="utf-8")
    (cards / "t80.toml").write_text(text.replace("normal = { value = 6", "normal = { value = 5"),
                                    encoding="utf-8")
    scenario = (PKG / "scenarios" / "basic-a.toml").read_text(encoding="utf-8")
    path = tmp_path / "mine.toml"
    path.write_text(scenario + '\n[special]\ncards = "mycards"\n', encoding="utf-8")
    return path, cards


def _play(path: Path, decisions: int) -> Game:
    game = Game(Scenario.load(path), seed=11)
    ais = {s: RandomController(s, 11) for s in ("NATO", "Soviet")}
    while game.pending is not None and len(game.decisions) < decisions:
        d = game.pending
        game.answer(ais[d.side].choose(d, game.view(d.side)))
    return game


def test_a_game_on_shipped_data_names_no_pack() -> None:
    game = _play(PKG / "scenarios" / "basic-a.toml", 1)
    assert "data_packs" not in game.log.events[0]


def test_a_replay_on_changed_cards_is_refused(tmp_path: Path) -> None:
    path, cards = _scenario_with_cards(tmp_path)
    game = _play(path, 20)
    packs = game.log.events[0]["data_packs"]
    assert list(packs) == ["MBT cards 'mycards' ([special] cards)"]
    save = tmp_path / "game.json"
    save_game(game, save)
    assert len(rebuild(load_saved(save), verify=True).decisions) == len(game.decisions)

    card = cards / "t80.toml"
    card.write_text(card.read_text(encoding="utf-8").replace("normal = { value = 5",
                                                             "normal = { value = 4"),
                    encoding="utf-8")
    with pytest.raises(DataError, match=r"'mycards'.*has changed since the game was played"):
        rebuild(load_saved(save), verify=False)  # refused even when not verifying hashes
    shutil.rmtree(cards)
    with pytest.raises(DataError, match="no such data file or folder"):
        rebuild(load_saved(save), verify=False)


def test_a_pack_named_by_the_environment_must_be_in_effect_on_replay(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pack = tmp_path / "tables"
    pack.mkdir()
    (pack / "note.txt").write_text("an empty pack still counts", encoding="utf-8")
    monkeypatch.setenv("HEXWAR_MBT_TABLES", str(pack))
    game = _play(PKG / "scenarios" / "basic-a.toml", 5)
    assert list(game.log.events[0]["data_packs"]) == ["MBT pack 1 of HEXWAR_MBT_TABLES"]
    save = tmp_path / "game.json"
    save_game(game, save)
    monkeypatch.delenv("HEXWAR_MBT_TABLES")
    with pytest.raises(DataError, match="not in effect now") as err:
        rebuild(load_saved(save), verify=True)
    assert err.value.key == "header.data_packs"
