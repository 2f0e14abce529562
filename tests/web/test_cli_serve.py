"""``hexwar serve``: the seats' URLs printed, the game saved at once, a save resumed with the
same URLs, and bad arguments refused with a message (exit 2). The server itself is not started
(its ``run`` is replaced): the other web tests drive it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from hexwar.core.cli import cli

uvicorn = pytest.importorskip("uvicorn")


@pytest.fixture(autouse=True)
def no_server(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)


def _urls(output: str) -> dict[str, str]:
    return dict(re.findall(r"open for (\S+): (http://\S+)", output))


def test_serve_prints_a_url_per_seat_and_resumes_with_the_same(tmp_path: Path) -> None:
    save = tmp_path / "t.json"
    first = CliRunner().invoke(cli, ["serve", "mbt:basic-a", "--players", "human,human",
                                     "--seed", "4", "--save", str(save), "--umpire"])
    assert first.exit_code == 0, first.output
    urls = _urls(first.output)
    assert set(urls) == {"NATO", "Soviet", "umpire"}
    assert all(re.fullmatch(r"http://127\.0\.0\.1:8765/seat/[\w-]{32}", u) for u in urls.values())
    assert len(set(urls.values())) == 3 and save.exists()
    again = CliRunner().invoke(cli, ["serve", str(save), "--port", "9000"])
    assert again.exit_code == 0, again.output
    assert _urls(again.output) == {k: v.replace(":8765", ":9000") for k, v in urls.items()}
    refused = CliRunner().invoke(cli, ["serve", "mbt:basic-a", "--save", str(save)])
    assert refused.exit_code == 2 and "holds a game already" in refused.output


@pytest.mark.parametrize(("args", "message"), [
    (["serve", "nowhere:nothing"], "unknown scenario"),
    (["serve", "mbt:basic-a", "--players", "human,human,ai"], "names 3 player(s)"),
    (["serve", "mbt:basic-a", "--players", "script:x.json,ai"], "a script cannot sit"),
    (["serve", "mbt:basic-a", "--players", "wizard,ai"], "unknown player"),
])
def test_serve_refuses_bad_arguments(tmp_path: Path, args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, [*args, "--save", str(tmp_path / "x.json")])
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output


def test_serve_an_umpired_mbt_game(tmp_path: Path) -> None:
    """MBT 24.0 at the web table: a person against the umpired AI, a person in the umpire's
    seat; the save holds the option."""
    save = tmp_path / "u.json"
    result = CliRunner().invoke(cli, ["serve", "mbt:basic-a", "--option", "mbt.umpired",
                                      "--players", "human,umpired-ai", "--umpire", "--seed", "3",
                                      "--save", str(save)])
    assert result.exit_code == 0, result.output
    assert set(_urls(result.output)) == {"NATO", "umpire"}
    assert '"mbt.umpired"' in save.read_text(encoding="utf-8")


def test_serve_splits_a_side_among_players(tmp_path: Path) -> None:
    """CORE-81: ``--player`` gives each player of a side a URL of his own, kept on resume."""
    save = tmp_path / "p.json"
    first = CliRunner().invoke(cli, ["serve", "mbt:basic-a", "--players", "human,human",
                                     "--player", "NATO:anna=N1", "--player", "NATO:ben=N2,N3",
                                     "--seed", "4", "--save", str(save)])
    assert first.exit_code == 0, first.output
    urls = _urls(first.output)
    assert set(urls) == {"NATO/anna", "NATO/ben", "Soviet"}
    again = CliRunner().invoke(cli, ["serve", str(save)])
    assert again.exit_code == 0 and _urls(again.output) == urls
    for args, message in ((["--player", "NATO:anna=N1"], "N2, N3 have none"),
                          (["--player", "NATO=N1"], "SIDE:NAME=UNIT"),
                          (["--player", "Soviet:ivan=S*"], "played by the computer")):
        result = CliRunner().invoke(cli, ["serve", "mbt:basic-a", "--seed", "4", *args,
                                          "--save", str(tmp_path / "x.json")])
        assert result.exit_code == 2 and message in result.output, result.output
        assert "Traceback" not in result.output


def test_serve_on_any_free_port_prints_the_port_it_got(tmp_path: Path) -> None:
    """``--port 0`` (any free port): the URLs name the port the server listens on, not 0."""
    got = CliRunner().invoke(cli, ["serve", "firefight:scenario-1", "--seed", "1", "--port", "0",
                                   "--save", str(tmp_path / "t.json")])
    assert got.exit_code == 0, got.output
    (url,) = _urls(got.output).values()
    port = int(re.fullmatch(r"http://127\.0\.0\.1:(\d+)/seat/[\w-]{32}", url).group(1))  # type: ignore[union-attr]
    assert port > 0


def test_serve_caps_the_snapshots_it_keeps(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """CORE-103, CORE-105: ``--max-snapshots N`` caps the snapshots the table keeps, for a new
    game and a resumed save alike; fewer than 1 (or not a number) is refused, exit 2."""
    from hexwar.core.web import server

    made: list[Any] = []
    real = server.create_app
    monkeypatch.setattr(server, "create_app", lambda t: (made.append(t), real(t))[1])
    save = tmp_path / "t.json"
    first = CliRunner().invoke(cli, ["serve", "firefight:scenario-1", "--seed", "4", "--save",
                                     str(save), "--max-snapshots", "2"])
    assert first.exit_code == 0, first.output
    t = made[-1]
    assert t.max_snapshots == 2
    names = [t.snapshot().name for _ in range(3)]
    assert [s["name"] for s in t.snapshots()] == names[1:]
    again = CliRunner().invoke(cli, ["serve", str(save), "--max-snapshots", "5"])
    assert again.exit_code == 0, again.output
    assert made[-1].max_snapshots == 5
    plain = CliRunner().invoke(cli, ["serve", str(save)])
    assert plain.exit_code == 0 and made[-1].max_snapshots == 20
    for bad, said in (("0", "must be at least 1, got 0"), ("-3", "must be at least 1, got -3"),
                      ("many", "'many' is not a valid integer")):
        refused = CliRunner().invoke(cli, ["serve", str(save), "--max-snapshots", bad])
        assert refused.exit_code == 2, refused.output
        assert "--max-snapshots" in refused.output and said in refused.output
        assert "Traceback" not in refused.output
