"""Developer tool: transcribe the MBT TO&E section into ``plugins/mbt/data/toe/{usa,frg,ussr}.toml``.

Run by hand (``python tools/mbt/transcribe_toe.py RULEBOOK.txt [OUTDIR]``; OUTDIR defaults to the
shipped ``plugins/mbt/data/toe``); it is not part of the installed package, and
``tests/plugins/mbt/test_tools.py`` checks that the shipped files are what it writes (when the
rulebook text is at hand).

It turns the three nation blocks of the rulebook's "TO&E" section (parts 1-4: individual ground
unit point values, basic organizations, frequently attached units, larger organizations) into
structured records: unit names, card ids, counts, bracketed options and the printed prices.
Prices are kept exactly as printed (including misprints, which are documented in ``errata.toml``,
never corrected here; docs/decisions.md MBTD-18). Officer-placement notes are reduced to short
fragments.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

NATIONS = (
    ("USA", "United States of America TO & E"),
    ("FRG", "Federal Republic of Germany TO & E"),
    ("USSR", "Union of Soviet Socialist Republics TO & E"),
)

HELICOPTERS = ("UH-1H", "UH-60A", "OH-58D", "AH-1S", "AH-64A", "UH-1D", "BO-105", "Hind-", "Mi-2", "Mi-4")
TOWED = ("T-12", "SD-44", "SPG-9", "ZU-23")

CARD = r"[A-Z]+-[0-9][0-9A-Z/]*"
UNIT_RE = re.compile(
    r"1 x (?P<name>.+?) \((?P<card>" + CARD + r")\) "
    r"(?P<cr>\d+)(?:\((?P<crd>\d+)\))?Cr-(?P<av>\d+)(?:\((?P<avd>\d+)\))?Av-"
    r"(?P<pr>\d+)(?:\((?P<prd>\d+)\))?Pr\."
)
PRICE_RE = re.compile(
    r"(?P<cr>\d+)Cr-(?P<av>[0-9A-Za-z]+)-(?P<pr>\d+)Pr\.|(?P<avonly>\d+)Av\.|(?P<cronly>\d+)Cr\."
)
LABEL_RE = re.compile(r"(?:^|(?<=\. ))(?P<id>[a-z]{1,3})(?: \((?P<mount>Mounted|Dismounted)\))?\. ")
COMP_RE = re.compile(
    r"(?:(?P<n>\d+) x )?(?P<name>[^,\[\]\s][^,\[\]]*?)(?: \[(?P<opts>[^\]]*)\])? \((?P<card>" + CARD + r")\)"
)
DOCTRINE_RE = re.compile(r"(No doctrine|With doctrine|With vehicle doctrine|With vehicle & SPG-9 doctrine)")
DOCTRINE_CODE = {
    "No doctrine": "none",
    "With doctrine": "all",
    "With vehicle doctrine": "vehicle",
    "With vehicle & SPG-9 doctrine": "vehicle+SPG-9",
}


@dataclass
class Component:
    n: int
    unit: str
    card: str
    kind: str
    options: list[str] = field(default_factory=list)
    elite: list[str] = field(default_factory=list)
    plow: int = 0
    count_printed: bool = True


def unit_kind(name: str) -> str:
    if "Squad" in name or name.startswith("Team"):
        return "leg"
    if "Battery" in name:
        return "artillery"
    if any(name.startswith(h) for h in HELICOPTERS):
        return "helicopter"
    if name in TOWED:
        return "towed"
    return "vehicle"


def split_options(text: str) -> tuple[list[str], list[str], int]:
    """Split a bracket such as ``with Dragon, AT-4 & Stinger, "Squad Plus"`` into weapons, elite, plows."""
    elite = re.findall(r'"([^"]+)"', text)
    rest = re.sub(r',?\s*"[^"]+"(?:\s*&\s*"[^"]+")*', "", text).strip().rstrip(",").strip()
    plow = 0
    m = re.search(r"(?:&\s*)?(\d+) with mine plow", rest)
    if m:
        plow = int(m.group(1))
        rest = (rest[: m.start()] + rest[m.end() :]).strip().rstrip("&").strip()
    if rest.startswith("with "):
        rest = rest[5:]
    opts = [p.strip() for p in re.split(r",\s*|\s+&\s+|\s+and\s+", rest) if p.strip()]
    return opts, elite, plow


def parse_components(text: str) -> list[Component]:
    out: list[Component] = []
    for m in COMP_RE.finditer(text):
        name = m.group("name").strip()
        opts, elite, plow = split_options(m.group("opts") or "")
        out.append(
            Component(
                n=int(m.group("n") or 1),
                unit=name,
                card=m.group("card"),
                kind=unit_kind(name),
                options=opts,
                elite=elite,
                plow=plow,
                count_printed=m.group("n") is not None,
            )
        )
    return out


def officer_notes(text: str) -> list[str]:
    notes = []
    for part in re.split(r"\.\s+|,\s+", text.strip().rstrip(".")):
        part = part.strip()
        if not part:
            continue
        part = re.sub(r"^The ", "", part)
        part = re.sub(r"^the ", "", part)
        part = re.sub(r" (is|are) ", " ", part, count=1)
        notes.append(part)
    return notes


def parse_prices(chunk: str) -> list[dict[str, Any]]:
    prices: list[dict[str, Any]] = []
    matches = list(PRICE_RE.finditer(chunk))
    for i, m in enumerate(matches):
        before = chunk[(matches[i - 1].end() if i else 0) : m.start()]
        after_end = matches[i + 1].start() if i + 1 < len(matches) else len(chunk)
        after = chunk[m.end() : after_end]
        rec: dict[str, Any] = {"printed": m.group(0).rstrip(".")}
        if m.group("avonly"):
            rec["av"] = int(m.group("avonly"))
        elif m.group("cronly"):
            rec["cr"] = int(m.group("cronly"))
        else:
            rec["cr"] = int(m.group("cr"))
            if m.group("av").endswith("Av") and m.group("av")[:-2].isdigit():
                rec["av"] = int(m.group("av")[:-2])
            else:
                rec["garbled"] = m.group("av")
            rec["pr"] = int(m.group("pr"))
        # A doctrine phrase directly before the price ("With doctrine: ...") or directly after it.
        db = re.search(DOCTRINE_RE.pattern + r":\s*$", before) if before else None
        da = DOCTRINE_RE.match(after.strip())
        d = db or da
        rec["doctrine"] = DOCTRINE_CODE[d.group(1)] if d else None
        prices.append(rec)
    return prices


def parse_org_line(line: str, part: str) -> dict[str, Any]:
    name, rest = line.split(": ", 1)
    labels = list(LABEL_RE.finditer(rest))
    variants: list[dict[str, Any]] = []
    if labels:
        head = rest[: labels[0].start()]
        for i, lm in enumerate(labels):
            end = labels[i + 1].start() if i + 1 < len(labels) else len(rest)
            chunk = rest[lm.end() : end]
            variants.append({"id": lm.group("id"), "mount": lm.group("mount") or "", "chunk": chunk})
    else:
        first = re.search(r"(?:^|(?<=\. ))\d+ x ", rest)
        start = first.start() if first else 0
        head = rest[:start]
        variants.append({"id": "", "mount": "", "chunk": rest[start:]})
    for v in variants:
        chunk = v.pop("chunk")
        first_price = PRICE_RE.search(chunk)
        comp_text = chunk[: first_price.start()] if first_price else chunk
        v["components"] = parse_components(comp_text)
        v["prices"] = parse_prices(chunk)
    kind = "combat"
    if "Headquarters" in name:
        kind = "headquarters"
    elif "Artillery" in name:
        kind = "artillery"
    return {
        "name": name,
        "part": part,
        "kind": kind,
        "officers": officer_notes(head),
        "variants": variants,
    }


def parse_larger(line: str) -> dict[str, Any]:
    name, rest = line.split(": ", 1)
    ref = name.endswith(" *")
    name = name.removesuffix(" *")
    constraint = ""
    m = re.match(r"(All units use the same [^.]+)\. ", rest)
    if m:
        constraint = m.group(1)
        rest = rest[m.end() :]
    members = []
    for part in rest.rstrip(".").split(", "):
        pm = re.match(r"(?:(\d+) x )?(.+?)( \(see\))?$", part.strip())
        assert pm, part
        members.append(
            {
                "n": int(pm.group(1) or 1),
                "name": pm.group(2),
                "see": bool(pm.group(3)),
                "count_printed": bool(pm.group(1)),
            }
        )
    return {"name": name, "reference_only": ref, "constraint": constraint, "members": members}


def s(v: str) -> str:
    return json.dumps(v, ensure_ascii=False)


def comp_toml(c: Component) -> str:
    parts = [f"n = {c.n}", f"unit = {s(c.unit)}", f"card = {s(c.card)}", f"kind = {s(c.kind)}"]
    if c.options:
        parts.append("options = [" + ", ".join(s(o) for o in c.options) + "]")
    if c.elite:
        parts.append("elite = [" + ", ".join(s(o) for o in c.elite) + "]")
    if c.plow:
        parts.append(f"mine_plows = {c.plow}")
    if not c.count_printed:
        parts.append("count_printed = false")
    return "{ " + ", ".join(parts) + " }"


def price_toml(p: dict[str, Any]) -> str:
    parts = []
    for k in ("cr", "av", "pr"):
        if k in p:
            parts.append(f"{k} = {p[k]}")
    if "garbled" in p:
        parts.append(f"av_garbled = {s(p['garbled'])}")
    parts.append(f"doctrine = {s(p['doctrine'] or 'unstated')}")
    parts.append(f"printed = {s(p['printed'])}")
    return "{ " + ", ".join(parts) + " }"


def emit(nation: str, title: str, body: list[str]) -> str:
    out: list[str] = []
    source = f"MBT rulebook, TO&E section, {title}"
    out.append(f"# {nation} TO&E, transcribed from the MBT rulebook ({title}).")
    out.append("# Generated by tools/mbt/transcribe_toe.py; printed values are kept as printed.")
    out.append("# Misprints are documented in errata.toml (never corrected here).")
    out.append("")
    out.append("[meta]")
    out.append(f"nation = {s(nation)}")
    out.append(f"source = {s(source)}")
    out.append("")
    parts: dict[str, list[str]] = {"1": [], "2": [], "3": [], "4": []}
    cur = ""
    for line in body:
        m = re.match(r"([1-4])\. ", line)
        if m:
            cur = m.group(1)
            tail = line.split(":", 1)[1].strip() if cur == "1" else ""
            if cur == "1" and tail and not tail.startswith("Values"):
                parts[cur].append(tail)
            continue
        if cur:
            parts[cur].append(line)
    units = UNIT_RE.finditer(" ".join(parts["1"]))
    part_src = {
        "1": "1. Individual Ground Unit Point Values",
        "2": "2. Basic Organizations",
        "3": "3. Frequently Attached Units",
        "4": "4. Larger Organizations",
    }
    for m in units:
        name = m.group("name")
        base, opts = name, list[str]()
        bm = re.match(r"(.+?) \[(.+)\]$", name)
        if bm:
            base = bm.group(1)
            opts, _, _ = split_options(bm.group(2))
        out.append("[[units]]")
        out.append(f"name = {s(base)}")
        if opts:
            out.append("options = [" + ", ".join(s(o) for o in opts) + "]")
        out.append(f"card = {s(m.group('card'))}")
        out.append(f"kind = {s(unit_kind(base))}")
        out.append(f"cr = {m.group('cr')}")
        out.append(f"av = {m.group('av')}")
        out.append(f"pr = {m.group('pr')}")
        if m.group("avd"):
            out.append(
                f"doctrine = {{ cr = {m.group('crd')}, av = {m.group('avd')}, pr = {m.group('prd')} }}"
            )
        out.append(f"printed = {s(m.group(0).removeprefix('1 x ').rstrip('.'))}")
        out.append(f"source = {s(part_src['1'])}")
        out.append("")
    for part in ("2", "3"):
        for line in parts[part]:
            org = parse_org_line(line, "basic" if part == "2" else "attached")
            out.append("[[organizations]]")
            out.append(f"name = {s(org['name'])}")
            out.append(f"part = {s(org['part'])}")
            out.append(f"kind = {s(org['kind'])}")
            if org["officers"]:
                out.append("officers = [" + ", ".join(s(o) for o in org["officers"]) + "]")
            out.append(f"source = {s(part_src[part])}")
            for v in org["variants"]:
                out.append("[[organizations.variants]]")
                out.append(f"id = {s(v['id'])}")
                if v["mount"]:
                    out.append(f"mount = {s(v['mount'])}")
                out.append("components = [")
                for c in v["components"]:
                    out.append("  " + comp_toml(c) + ",")
                out.append("]")
                out.append("prices = [")
                for p in v["prices"]:
                    out.append("  " + price_toml(p) + ",")
                out.append("]")
            out.append("")
    for line in parts["4"]:
        lo = parse_larger(line)
        out.append("[[larger]]")
        out.append(f"name = {s(lo['name'])}")
        out.append(f"reference_only = {'true' if lo['reference_only'] else 'false'}")
        if lo["constraint"]:
            out.append(f"constraint = {s(lo['constraint'])}")
        out.append(f"source = {s(part_src['4'])}")
        out.append("members = [")
        for mem in lo["members"]:
            extra = ", see = true" if mem["see"] else ""
            extra += "" if mem["count_printed"] else ", count_printed = false"
            out.append(f"  {{ n = {mem['n']}, name = {s(mem['name'])}{extra} }},")
        out.append("]")
        out.append("")
    return "\n".join(out)


#: where the transcription is shipped
SHIPPED = Path(__file__).resolve().parents[2] / "plugins" / "mbt" / "data" / "toe"


def main(argv: list[str]) -> None:
    """``RULEBOOK [OUTDIR]``: write ``usa.toml``, ``frg.toml`` and ``ussr.toml`` into OUTDIR."""
    text = Path(argv[0]).read_text(encoding="utf-8").splitlines()
    outdir = Path(argv[1]) if len(argv) > 1 else SHIPPED
    starts = [next(i for i, line in enumerate(text) if line.strip() == title) for _, title in NATIONS]
    ends = [*starts[1:], next(i for i, line in enumerate(text) if line.strip() == "The Scenarios")]
    for (nation, title), a, b in zip(NATIONS, starts, ends, strict=True):
        body = [line.strip() for line in text[a + 1 : b] if line.strip()]
        (outdir / f"{nation.lower()}.toml").write_text(emit(nation, title, body) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
