"""One citation format everywhere: a rule is cited with its system's name and its number
(``Firefight 6.57``, ``MBT 7.4.2.1``, ``Firepower 6.2.8``), and nothing cites the design notes
kept outside the repository (decisions are entries of docs/decisions.md)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = [ROOT / "core", ROOT / "plugins", ROOT / "entry", *sorted((ROOT / "examples").glob("*/src"))]
TEXTS = [*SOURCES, ROOT / "tests", ROOT / "docs", ROOT / "tools", ROOT / "benchmarks"]
QUALIFIED = re.compile(r"^(Firefight|MBT|Firepower|Skirmish) \S|^house rule ")
#: Firefight's printed case style, "[6.52]", instead of "Firefight 6.52"
BRACKETED_CASE = re.compile(r"(?<![\w.])\[\d+\.\d+[A-Z]?\]")
#: references to the design notes beside the repository, which a user does not have
NOTES = re.compile(r"(?i)\bdigest\s+(§|section|appendix|[a-z]-\d|\d)|\bthe digest\b|seed-(firefight|mbt|"
                   r"firepower)\.md|anchors-(code|field)\.md|\bdesign(?: decision)? 9\.3")


def _files(roots: list[Path], suffixes: tuple[str, ...]) -> list[Path]:
    return sorted(p for r in roots for p in r.rglob("*") if p.suffix in suffixes and p.is_file()
                  and not {"__pycache__", "build", ".venv"} & set(p.parts))


def _rule_literals(path: Path) -> list[tuple[int, str]]:
    """String literals passed as ``rule=`` or in ``rules=[...]`` (and PhaseSpec's third
    argument, its rule)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        values: list[ast.expr] = []
        for kw in node.keywords:
            if kw.arg == "rule":
                values.append(kw.value)
            elif kw.arg == "rules" and isinstance(kw.value, ast.List | ast.Tuple):
                values.extend(kw.value.elts)
        if isinstance(node.func, ast.Name) and node.func.id == "PhaseSpec" and len(node.args) >= 3:
            values.append(node.args[2])
        found += [(v.lineno, v.value) for v in values
                  if isinstance(v, ast.Constant) and isinstance(v.value, str) and v.value]
    return found


def test_every_rule_reference_in_code_is_system_qualified() -> None:
    bad = [f"{p.relative_to(ROOT)}:{line}: {text!r}" for p in _files(SOURCES, (".py",))
           for line, text in _rule_literals(p) if not QUALIFIED.match(text)]
    assert not bad, "rule references without their system's name:\n" + "\n".join(bad)


def test_the_scan_finds_rule_references() -> None:
    # the test above must look at something: every system cites rules in its code
    cited = {text.split()[0] for p in _files(SOURCES, (".py",)) for _, text in _rule_literals(p)}
    assert {"Firefight", "MBT", "Firepower"} <= cited


def test_no_firefight_case_in_its_printed_bracket_style() -> None:
    docs = [*_files([*SOURCES, ROOT / "docs"], (".py", ".toml", ".md")), ROOT / "README.md",
            ROOT / "CHANGELOG.md"]
    bad = [f"{p.relative_to(ROOT)}:{i}: {line.strip()}" for p in docs
           for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
           if BRACKETED_CASE.search(line)]
    assert not bad, "write 'Firefight 6.52', not '[6.52]':\n" + "\n".join(bad[:40])


@pytest.mark.parametrize("suffix", [".py", ".md", ".toml", ".csv"])
def test_nothing_cites_the_design_notes_outside_the_repository(suffix: str) -> None:
    bad = [f"{p.relative_to(ROOT)}:{i}: {line.strip()}" for p in _files(TEXTS, (suffix,))
           if p.name != "test_citations.py"
           for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
           if NOTES.search(line)]
    assert not bad, "cite the rule number or a docs/decisions.md entry instead:\n" + "\n".join(bad)


DECISION = re.compile(r"\b((?:CORE|FFD|MBTD|FPD)-\d+)\b")


def test_every_cited_decision_is_an_entry_of_the_decisions_file() -> None:
    """A reference such as "docs/decisions.md MBTD-62" names an entry that exists."""
    entries = set(re.findall(r"^### ((?:CORE|FFD|MBTD|FPD)-\d+) ",
                             (ROOT / "docs" / "decisions.md").read_text(encoding="utf-8"), re.M))
    assert len(entries) > 100  # the pattern reads the file's headings
    dangling = sorted(f"{path.relative_to(ROOT)}: {name}"
                      for path in [*_files(TEXTS, (".py", ".md", ".toml", ".csv")),
                                   ROOT / "README.md", ROOT / "CHANGELOG.md"]
                      for name in set(DECISION.findall(path.read_text(encoding="utf-8")))
                      if name not in entries)
    assert not dangling, "cited but not in docs/decisions.md:\n" + "\n".join(dangling)


def test_each_decision_number_is_used_once() -> None:
    headings = re.findall(r"^### ((?:CORE|FFD|MBTD|FPD)-\d+) ",
                          (ROOT / "docs" / "decisions.md").read_text(encoding="utf-8"), re.M)
    assert len(headings) == len(set(headings)), sorted(h for h in headings if headings.count(h) > 1)
