"""Issue 9 item 15: the HTML replay and the SVG renderer escape everything they embed, so a save
with markup in a unit id, a title or a log line cannot run script when the page is opened."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

HOSTILE = '</script><script>alert("x")</script><img src=x onerror=alert(1)>&amp;\u2028\u2029\'"'

_SVG_TAGS = {"svg", "title", "style", "rect", "text", "g", "polygon", "path", "line", "circle"}


_PAGE_TAGS = {"html", "head", "meta", "title", "style", "body", "h1", "h2", "div", "button",
              "input", "strong", "ol", "template", "script", "label", "select"} | _SVG_TAGS


class _Tags(HTMLParser):
    """The elements and attributes a browser's tokenizer would see in the page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))


def _assert_safe_page(page: str) -> None:
    """The page has exactly its own <script> block, nothing inside it closes it early, and no
    element or event handler came from the data."""
    assert page.lower().count("<script") == 1, "an injected <script> tag"
    assert page.lower().count("</script") == 1, "an injected </script>"
    data = page.split("const replay = ", 1)[1].split(";\n", 1)[0]
    for bad in ("<", ">", "&", "\u2028", "\u2029"):
        assert bad not in data, f"raw {bad!r} in the data of the script block"
    parser = _Tags()
    parser.feed(page)
    for tag, attrs in parser.tags:
        assert tag in _PAGE_TAGS, f"an injected <{tag}>"
        assert not any(name.startswith("on") for name, _ in attrs), (tag, attrs)
    assert [t for t, _ in parser.tags].count("script") == 1


def _assert_safe_svg(svg: str) -> None:
    root = ET.fromstring(svg)  # well-formed: every hostile string stayed text or attribute value
    for el in root.iter():
        tag = el.tag.split("}", 1)[-1]
        assert tag in _SVG_TAGS, f"unexpected element <{tag}>"
        assert not any(a.lower().startswith("on") for a in el.attrib), el.attrib


def test_the_page_escapes_every_embedded_field() -> None:
    from hexwar.core.replay_html import page_html

    data: dict[str, Any] = {
        "steps": [{"t": 1, "p": HOSTILE, "ph": HOSTILE, "k": HOSTILE, "x": HOSTILE, "l": 0}],
        "layers": [[0]], "frags": ["<g>&lt;/script&gt;</g>"], "sides": {HOSTILE: HOSTILE},
    }
    page = page_html(HOSTILE, "<svg>&lt;/script&gt;</svg>", data)
    _assert_safe_page(page)
    # the data still round-trips: the browser's JSON parse gives back the exact strings
    import json

    embedded = page.split("const replay = ", 1)[1].split(";\n", 1)[0]
    assert json.loads(embedded) == data
    assert "<title>&lt;/script&gt;" in page


def test_svg_escapes_ids_labels_markers_and_colours() -> None:
    from hexwar.core.render import render_board
    from hexwar.core.types import TerrainType
    from tests.core.test_render import TERRAIN, small_board

    terrain = dict(TERRAIN)
    terrain["test:woods"] = TerrainType("test:woods", HOSTILE, "test 1",
                                        color='#4f8a3c"/><script>alert(3)</script>')
    units = [{"id": HOSTILE, "type": HOSTILE, "side": HOSTILE, "hex": "1C3", "facing": 2,
              "state": {"status": HOSTILE}},
             {"id": HOSTILE + "2", "type": "x", "side": "B", "hex": "1C3"}]
    svg = render_board(small_board(), terrain_types=terrain, units=units,
                       markers={"1D3": [HOSTILE]}, title=HOSTILE, los_line=("1A1", "1F5"),
                       highlight_hexes=["1C3"],
                       side_colors={HOSTILE: '"/><script>alert(1)</script>'})
    _assert_safe_svg(svg)
    assert "<script" not in svg
    assert HOSTILE in [el.get("data-id") for el in ET.fromstring(svg).iter()]


def _hostile_save(tmp_path: Path, *, hostile_id: bool = True) -> Path:
    from hexwar.core.cli import _resolve_scenario_path
    from hexwar.core.engine.controllers import RandomController
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.record import save_game
    from hexwar.core.scenario import Scenario

    path = Path(_resolve_scenario_path("firepower:basic"))
    text = path.read_text(encoding="utf-8")
    evil = "A1</script><script>alert(1)</script>"
    if hostile_id:
        text = re.sub(r'^id = "A1"$', f'id = "{evil}"', text, flags=re.M)
    text = text.replace('title = "Firepower: the Basic Game Scenario"',
                        'title = "Basic </script><script>alert(2)</script>"')
    scenario = Scenario.from_text(text, path=str(tmp_path / "evil.toml"))
    game = Game(scenario, seed=3)
    players = {s: RandomController(s, 3) for s in game.state.sides}
    while (d := game.pending) is not None:
        game.answer(players[d.side].choose(d, game.view(d.side)))
    save = tmp_path / "evil.json"
    save_game(game, save, players={s: "random" for s in game.state.sides})
    return save


def test_a_save_with_a_hostile_unit_id_gives_a_safe_page(tmp_path: Path) -> None:
    from hexwar.core.engine.record import load_saved
    from hexwar.core.errors import HexwarError
    from hexwar.core.replay_html import replay_html

    try:
        save = _hostile_save(tmp_path)
    except HexwarError as exc:  # a schema that refuses such ids is a safe outcome too
        assert "id" in str(exc)
        save = _hostile_save(tmp_path, hostile_id=False)  # the hostile title still goes in
    import json

    for side in (None, "A", "B"):
        page = replay_html(load_saved(save), side=side)
        _assert_safe_page(page)
        board = page.split('<template id="board">', 1)[1].split("</template>", 1)[0]
        assert page.count("<template") == 1 and board.count("<svg") == 1
        data = json.loads(page.split("const replay = ", 1)[1].split(";\n", 1)[0])
        for piece in data["frags"]:  # each piece of counters, as the page parses it
            _assert_safe_svg(f'<svg xmlns="http://www.w3.org/2000/svg">{piece}</svg>')
