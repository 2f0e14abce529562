// The hexwar web table: shows what the server sends this seat and sends back the player's
// choices. Plain JavaScript, no build step. The server is authoritative: this page holds only
// what its seat's side may know, and answers a decision with the index of one of its choices
// (or a composed answer the rules check on the server).
"use strict";

const token = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const $ = (id) => document.getElementById(id);
const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};

const S = {
  ws: null, hello: null, state: null, log: [], view: null, full: null,
  group: null, picked: [], placing: null, placement: {}, retry: 500, lastSerial: -1,
  goal: null,
};

// -- connection -------------------------------------------------------------------------------
function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(token)}`);
  S.ws = ws;
  ws.onopen = () => { S.retry = 500; };
  ws.onmessage = (ev) => receive(JSON.parse(ev.data));
  ws.onclose = (ev) => {
    if (ev.code === 4404) return;  // unknown seat: the error says so; retrying will not help
    toast("connection lost; reconnecting...", true);
    setTimeout(connect, S.retry);
    S.retry = Math.min(S.retry * 2, 8000);
  };
}

function send(msg) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(JSON.stringify(msg));
}

function toast(text, info) {
  const t = $("toast");
  t.textContent = text;
  t.className = info ? "info" : "";
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.hidden = true; }, info ? 2500 : 6000);
}

function receive(msg) {
  if (msg.type === "hello") {
    S.hello = msg;
    S.log = [];
    $("title").textContent = `${msg.scenario.title} (${msg.scenario.system})`;
    $("seat").textContent = msg.seat.role === "umpire" ? "umpire" : msg.seat.name;
    document.title = `${msg.seat.name}: ${msg.scenario.title}`;
  } else if (msg.type === "state") {
    $("handover").hidden = true;
    showState(msg);
    showProposal(msg.proposal);
  } else if (msg.type === "handover") {
    showHandover(msg.to);
    showProposal(msg.proposal);
  } else if (msg.type === "error") {
    toast(msg.message);
  } else if (msg.type === "saved") {
    toast(`saved as ${msg.name} (${msg.decisions} decisions)`, true);
    showSnapshots(msg.snapshots);
  } else if (msg.type === "snapshots") {
    showSnapshots(msg.snapshots);
  } else if (msg.type === "notice") {
    toast(msg.message, true);
  } else if (msg.type === "resumed") {
    // the game was replaced: the next state is the whole view afresh (docs/decisions.md CORE-104)
    S.lastSerial = -1; S.goal = null; S.group = null; S.log = [];
    $("saves").hidden = true;
    toast(`every seat agreed: the game is back at ${msg.snapshot} (game-turn ${msg.turn})`, true);
  }
}

// -- snapshots and resuming one (every seat agrees: docs/decisions.md CORE-104) ---------------
function showSnapshots(list) {
  const t = $("snapshot-list");
  t.innerHTML = "";
  if (!list.length) {
    const row = el("tr");
    row.append(el("td", "", "no snapshot yet"));
    t.append(row);
  }
  for (const s of list.slice().reverse()) {
    const row = el("tr");
    row.append(el("td", "", s.name), el("td", "", `game-turn ${s.turn}`), el("td", "", s.time));
    const go = choiceButton("Resume from this snapshot", "", null);
    go.className = "resume";
    go.onclick = () => send({ type: "propose", snapshot: s.name });
    const cell = el("td");
    cell.append(go);
    row.append(cell);
    t.append(row);
  }
}

function showProposal(p) {
  const box = $("proposal");
  box.innerHTML = "";
  box.hidden = !p;
  if (!p) return;
  const what = `snapshot ${p.snapshot} (game-turn ${p.turn})`;
  const waiting = p.waiting.length ? ` Waiting for: ${p.waiting.join(", ")}.` : "";
  if (p.mine) {
    box.append(`You propose to resume from ${what}.${waiting}`);
    const w = choiceButton("Withdraw", "", null);
    w.id = "proposal-withdraw";
    w.onclick = () => send({ type: "withdraw", proposal: p.number });
    box.append(w);
    return;
  }
  box.append(`${p.by} proposes to resume from ${what}: the game goes back there for everyone.`);
  if (p.agreed) { box.append(` You accepted.${waiting}`); return; }
  const yes = choiceButton("Accept", "", null);
  yes.id = "proposal-accept";
  yes.onclick = () => send({ type: "accept", proposal: p.number });
  const no = choiceButton("Refuse", "", null);
  no.id = "proposal-refuse";
  no.onclick = () => send({ type: "refuse", proposal: p.number });
  box.append(yes, no);
}

function showHandover(side) {
  S.state = null;
  $("board").innerHTML = "";
  $("unitlist").innerHTML = "";
  $("log").innerHTML = "";
  S.log = [];
  $("decision").innerHTML = "";
  $("handover-title").textContent = `Pass the device to ${side}`;
  const go = $("handover-go");
  go.textContent = `I am ${side}: show my side`;
  go.onclick = () => send({ type: "ready", side });
  $("handover").hidden = false;
}

// -- state ------------------------------------------------------------------------------------
function showState(msg) {
  const fresh = msg.serial !== S.lastSerial;
  S.lastSerial = msg.serial;
  if (msg.log_from === 0) S.log = [];
  const before = S.log.length;
  S.log = S.log.slice(0, msg.log_from).concat(msg.log);
  S.state = msg;
  showStatus(msg);
  if (msg.svg !== null) showBoard(msg.svg);
  showUnits(msg);
  showLog(before);
  if (fresh) { S.group = null; S.picked = []; S.placing = null; S.placement = {}; }
  if (S.goal && (fresh || !msg.decision)) followGoal();
  showDecision();
  $("undo").disabled = !msg.can_undo;
}

function showStatus(msg) {
  const st = msg.status;
  const box = $("status");
  box.innerHTML = "";
  box.append(`Turn ${st.turn} of ${st.turns} · ${st.phase || "set-up"} `);
  if (st.phase_rule) box.append(el("span", "rule", `[${st.phase_rule}]`));
  if (st.step) { box.append(" · step "); box.append(el("span", "rule", `[${st.step}]`)); }
  box.append(" · ");
  let who;
  if (st.failure) who = `the game stopped: ${st.failure}`;
  else if (st.over) {
    const r = st.result || {};
    who = `game over: ${r.winner ? r.winner + " wins" : "nobody wins"} (${r.level || "draw"})`;
  } else if (msg.decision) who = st.ahead ? `your decision (${st.ahead} given ahead)` : "your decision";
  else if (st.ahead) who = `your ${st.ahead} secret answer(s) are in: waiting for the others'`;
  else if (st.waiting_for) {
    const kind = st.waiting_for === "umpire" ? "the umpire" :
      S.hello && S.hello.players[st.waiting_for] === "computer" ? "the computer" : "the player";
    who = `waiting for ${st.waiting_for} (${kind})`;
  } else who = "";
  box.append(el("b", "", who));
}

function showBoard(svg) {
  const board = $("board");
  const keep = S.view;
  board.innerHTML = svg;
  const s = board.querySelector("svg");
  if (!s) return;
  s.removeAttribute("width");
  s.removeAttribute("height");
  const vb = s.getAttribute("viewBox").split(/\s+/).map(Number);
  S.full = vb;
  S.view = keep || vb.slice();
  s.setAttribute("viewBox", S.view.join(" "));
  s.setAttribute("preserveAspectRatio", "xMidYMid meet");
  const notes = document.createElementNS("http://www.w3.org/2000/svg", "g");
  notes.id = "hw-notes";
  s.appendChild(notes);
  const route = document.createElementNS("http://www.w3.org/2000/svg", "g");
  route.id = "hw-route";
  s.appendChild(route);
}

function unitLine(id, u) {
  const bits = [id];
  if (u.type) bits.push(`(${String(u.type).split(":").pop()})`);
  if (u.where) bits.push(`at ${u.where}`);
  else if (u.hex === null) bits.push("off the map");
  const st = u.state || {};
  const flags = Object.entries(st).filter(([, v]) => v === true).map(([k]) => k.replace(/_/g, " "));
  if (flags.length) bits.push(`· ${flags.join(", ")}`);
  return bits.join(" ");
}

function unitTip(id) {
  const u = (S.state && S.state.units[id]) || null;
  if (!u) return id;
  const lines = [unitLine(id, u)];
  if (u.side) lines.push(`side ${u.side}`);
  if (u.facing) lines.push(`facing ${u.facing}`);
  for (const [k, v] of Object.entries(u.state || {})) {
    if (v === true) continue;
    lines.push(`${k.replace(/_/g, " ")}: ${typeof v === "object" ? words(v) : v}`);
  }
  return lines.join("\n");
}

function words(v) {
  if (v === null || v === undefined) return "none";
  if (Array.isArray(v)) return v.map(words).join(", ") || "none";
  if (typeof v === "object") return Object.entries(v).map(([k, x]) => `${k} ${words(x)}`).join("; ");
  return String(v);
}

function showUnits(msg) {
  const box = $("unitlist");
  box.innerHTML = "";
  const ids = Object.keys(msg.units).sort();
  const own = ids.filter((i) => msg.side === null || msg.units[i].side === msg.side);
  const enemy = ids.filter((i) => !own.includes(i));
  const add = (list, cls, title) => {
    if (!list.length) return;
    box.append(el("div", "", title));
    for (const id of list) {
      const row = el("div", `u ${cls}`, unitLine(id, msg.units[id]));
      row.title = unitTip(id);
      row.onclick = () => clickUnit(id);
      box.append(row);
    }
  };
  add(own, "own", msg.side === null ? "All units" : "Your units");
  add(enemy, "enemy", "Enemy units you can see");
}

function showLog(before) {
  const ol = $("log");
  ol.innerHTML = "";
  S.log.forEach((line, i) => {
    const li = el("li", i >= before && before > 0 ? "fresh" : "", line);
    ol.append(li);
  });
  $("logbox").scrollTop = $("logbox").scrollHeight;
}

// -- decisions --------------------------------------------------------------------------------
function decision() { return S.state && S.state.decision; }

function inGroup(c) { return S.group === null || c.group === S.group; }

function showDecision() {
  const box = $("decision");
  box.innerHTML = "";
  clearMarks();
  const d = decision();
  box.className = d ? "mine" : "";
  if (!d) {
    const st = S.state ? S.state.status : {};
    box.append(el("h2", "", st.over ? "Game over" : "Waiting"));
    box.append(el("p", "", st.over ? "The game has ended." :
      st.waiting_for ? `${st.waiting_for} is deciding.` : ""));
    return;
  }
  const h = el("h2", "", d.title);
  box.append(h);
  if (d.rule) box.append(el("div", "rule", `[${d.rule}]`));
  for (const n of d.notes || []) box.append(el("div", "notes", n));
  const list = el("div", "choices");
  box.append(list);
  const groups = [...new Set(d.choices.filter((c) => c.group !== undefined).map((c) => c.group))];
  if (groups.length && S.group === null && d.widget === "choose") {
    box.append(el("div", "notes", "First pick one (on the map or below):"));
    for (const g of groups) {
      const n = d.choices.filter((c) => c.group === g).length;
      const b = choiceButton(`${g}`, `${n}`, null);
      b.onclick = () => { S.group = g; showDecision(); };
      list.append(b);
    }
    for (const c of d.choices) mark(c, true);
    d.choices.forEach((c, i) => { if (c.group === undefined) list.append(pickButton(c, i)); });
    return;
  }
  if (S.group !== null) {
    const back = choiceButton(`« back (${S.group})`, "", null);
    back.classList.add("back");
    back.onclick = () => { S.group = null; showDecision(); };
    list.append(back);
  }
  d.choices.forEach((c, i) => {
    if (!inGroup(c)) return;
    list.append(pickButton(c, i));
    mark(c, false);
  });
  for (const r of reachShown(d)) {  // farther hexes a move can reach, with their cost
    const p = polygon(r.hex);
    if (p && !p.classList.contains("cand")) { p.classList.add("reach"); addNote(r.hex, r.cost, "reachnote"); }
  }
  if (d.message) composeMessage(box, d.message);
  if (d.widget === "hexes") composeHexes(box, d);
  else if (d.widget === "units") composeUnits(box, d);
  else if (d.widget === "placement") composePlacement(box, d);
  else if (d.widget === "text") composeText(box);
}

function choiceButton(label, note, detail) {
  const b = el("button", "");
  b.type = "button";
  b.append(label);
  if (note) b.append(el("span", "note", note));
  for (const line of detail || []) b.append(el("span", "detail", line));
  return b;
}

function pickButton(c, i) {
  const b = choiceButton(c.label, c.note, c.detail);
  b.onclick = () => choose(i);
  b.onmouseenter = () => highlightOne(c, true);
  b.onmouseleave = () => highlightOne(c, false);
  return b;
}

function choose(i) { send({ type: "choose", serial: S.state.serial, index: i }); }
function answer(value) { send({ type: "answer", serial: S.state.serial, value }); }

function polygon(label) {
  return document.querySelector(`#board polygon.hex[data-label="${CSS.escape(label)}"]`);
}
function counter(id) {
  return document.querySelector(`#board g.unit[data-id="${CSS.escape(id)}"]`);
}

function clearMarks() {
  showRoute(null);
  document.querySelectorAll("#board .cand, #board .picked, #board .selected, #board .reach")
    .forEach((e) => e.classList.remove("cand", "picked", "selected", "reach"));
  const notes = document.getElementById("hw-notes");
  if (notes) notes.innerHTML = "";
}

function addNote(label, text, cls) {
  const p = polygon(label);
  const notes = document.getElementById("hw-notes");
  if (!p || !notes) return;
  const b = p.getBBox();
  const t = document.createElementNS("http://www.w3.org/2000/svg", "text");
  t.setAttribute("x", b.x + b.width / 2);
  t.setAttribute("y", b.y + b.height * 0.8);
  t.setAttribute("class", cls || "hexnote");
  t.textContent = text;
  notes.appendChild(t);
}

// the route to a hovered destination (a form's "paths": hex -> [[hex, cumulative cost], ...])
let routeShown = null;
function showRoute(label) {
  const d = label === null ? null : decision();
  const far = d ? reachAt(label) : null;
  const steps = d && d.paths && d.paths[label] ? d.paths[label] : (far ? far.route : null);
  const key = steps ? label : null;
  if (key === routeShown) return;
  routeShown = key;
  document.querySelectorAll("#board .route").forEach((e) => e.classList.remove("route"));
  const g = document.getElementById("hw-route");
  if (g) g.innerHTML = "";
  if (!steps || !g) return;
  for (const [hex, cost] of steps) {
    const p = polygon(hex);
    if (!p) continue;
    p.classList.add("route");
    const b = p.getBBox();
    const t = document.createElementNS("http://www.w3.org/2000/svg", "text");
    t.setAttribute("x", b.x + b.width / 2);
    t.setAttribute("y", b.y + b.height * 0.35);
    t.setAttribute("class", "routenote");
    t.textContent = cost;
    g.appendChild(t);
  }
}

function mark(c, grouping) {
  if (c.hex) {
    const p = polygon(c.hex);
    if (p) p.classList.add("cand");
    if (c.note && !grouping) addNote(c.hex, c.note);
  }
  if (c.unit) { const u = counter(c.unit); if (u) u.classList.add("cand"); }
}

function highlightOne(c, on) {
  if (c.hex) { const p = polygon(c.hex); if (p) p.classList.toggle("picked", on); }
  if (c.unit) { const u = counter(c.unit); if (u) u.classList.toggle("selected", on); }
}

function clickUnit(id) {
  const d = decision();
  if (!d) return;
  if (d.widget === "placement" && d.placement.units.some((u) => u.id === id)) {
    S.placing = id; showDecision(); return;
  }
  if (d.widget === "units") { togglePick(id); return; }
  if (S.group === null && d.choices.some((c) => c.group === id)) { S.group = id; showDecision(); return; }
  const hits = d.choices.map((c, i) => [c, i]).filter(([c]) => inGroup(c) && c.unit === id);
  if (hits.length === 1) choose(hits[0][1]);
}

function clickHex(label) {
  const d = decision();
  if (!d) return;
  if (d.widget === "hexes") { togglePick(label); return; }
  if (d.widget === "placement") {
    if (S.placing && (d.placement.zone || []).includes(label)) {
      S.placement[S.placing] = label; S.placing = null; showDecision();
    } else if (S.placing) toast(`${label} is outside the set-up zone`);
    return;
  }
  if (S.group === null && d.choices.some((c) => c.group === label)) { S.group = label; showDecision(); return; }
  const hits = d.choices.map((c, i) => [c, i]).filter(([c]) => inGroup(c) && c.hex === label);
  if (hits.length === 1) choose(hits[0][1]);
  else if (hits.length > 1 && S.group === null) { S.group = label; showDecision(); }
  else if (!hits.length && reachAt(label)) {
    const r = reachAt(label);
    S.goal = { hex: label, group: r.group };
    choose(r.first);
  }
}

function togglePick(x) {
  const d = decision();
  const k = S.picked.indexOf(x);
  const max = (d.hexes || d.units || {}).max;
  if (k >= 0) S.picked.splice(k, 1);
  else if (max !== undefined && S.picked.length >= max) toast(`at most ${max}`);
  else S.picked.push(x);
  showDecision();
}

function composeHexes(box, d) {
  const spec = d.hexes || {};
  for (const c of spec.candidates || []) { const p = polygon(c); if (p) p.classList.add("cand"); }
  for (const x of S.picked) { const p = polygon(x); if (p) p.classList.add("picked"); }
  box.append(el("div", "notes", `Click hexes on the map (${spec.min || 0} to ${spec.max ?? "any"}): ` +
    (S.picked.join(", ") || "none yet")));
  const done = choiceButton("Done: these hexes", "", null);
  done.onclick = () => answer(S.picked.slice());
  box.append(done);
}

function composeUnits(box, d) {
  const spec = d.units || {};
  for (const u of spec.candidates || []) {
    const row = el("label", "");
    const cb = el("input", "");
    cb.type = "checkbox";
    cb.checked = S.picked.includes(u.id);
    cb.onchange = () => togglePick(u.id);
    row.append(cb, " ", u.label);
    box.append(row, el("br"));
  }
  box.append(el("div", "notes", `Pick ${spec.min === spec.max ? spec.max : `${spec.min || 0} to ${spec.max}`}.`));
  const done = choiceButton("Done: these units", "", null);
  done.onclick = () => answer(S.picked.slice());
  box.append(done);
}

function composePlacement(box, d) {
  const spec = d.placement;
  if (S.placing) for (const z of spec.zone || []) { const p = polygon(z); if (p) p.classList.add("cand"); }
  box.append(el("div", "notes", S.placing ? `Click a highlighted hex for ${S.placing}.` :
    "Click one of your units (on the map or below), then a hex of the set-up zone."));
  for (const u of spec.units) {
    const where = S.placement[u.id];
    const b = choiceButton(`${u.label}: ${where ? `to ${where}` : `at ${u.hex}`}`, where ? "moved" : "", null);
    b.onclick = () => { S.placing = u.id; showDecision(); };
    if (S.placing === u.id) b.style.outline = "2px solid #1d6fd1";
    box.append(b);
    if (where) addNote(where, u.id, "hexnote");
  }
  if (S.placing) { const c = counter(S.placing); if (c) c.classList.add("selected"); }
  const done = choiceButton("Done: set up like this", "", null);
  done.onclick = () => answer(Object.assign({}, S.placement));
  box.append(done);
}

// the umpire's typed message to a side or one of its players (docs/decisions.md CORE-83)
function composeMessage(box, m) {
  const wrap = el("div", "message");
  wrap.append(el("div", "notes", `Or type a message (at most ${m.max} characters) to:`));
  const to = el("select", "");
  to.id = "message-to";
  m.to.forEach((t, i) => { const o = el("option", "", t.label); o.value = String(i); to.append(o); });
  const text = el("textarea", "");
  text.id = "message-text";
  text.maxLength = m.max;
  text.rows = 2;
  const go = choiceButton("Send the message", "", null);
  go.id = "message-send";
  go.onclick = () => {
    const t = m.to[Number(to.value)];
    if (!text.value.trim()) { toast("the message is empty"); return; }
    const value = { side: t.side, message: text.value.trim() };
    if (t.player) value.player = t.player;
    answer(value);
  };
  wrap.append(to, text, go);
  box.append(wrap);
}

// a form's "reach": hexes farther than the next step, with the cost, the route and the choice
// that takes its first step (Firefight and Firepower moves, docs/decisions.md CORE-84)
function reachShown(d) {
  return (d && d.reach ? d.reach : []).filter((r) => r.group === undefined ? S.group === null || !d.choices.some((c) => c.group !== undefined) : r.group === S.group);
}
function reachAt(label) { return reachShown(decision()).find((r) => r.hex === label) || null; }

// going to a farther hex one step at a time: the goal is kept while each next form reaches it
function followGoal() {
  const d = decision();
  if (!S.goal) return;
  if (!d) { if (S.state.status.over) S.goal = null; return; }  // another side reacts: wait
  if (S.goal.group !== undefined && d.choices.some((c) => c.group === S.goal.group)) S.group = S.goal.group;
  const r = reachAt(S.goal.hex);
  if (!r) { S.goal = null; return; }
  setTimeout(() => choose(r.first), 150);
}

function composeText(box) {
  const input = el("input", "");
  input.type = "text";
  input.placeholder = "your answer";
  const go = choiceButton("Send", "", null);
  go.onclick = () => answer(input.value);
  input.onkeydown = (e) => { if (e.key === "Enter") answer(input.value); };
  box.append(input, go);
}

// -- the map: zoom, pan, hover, click ------------------------------------------------------------
function svgPoint(evt) {
  const s = document.querySelector("#board svg");
  const r = s.getBoundingClientRect();
  const [x, y, w, h] = S.view;
  const scale = Math.max(w / r.width, h / r.height);
  const ox = x + (w - r.width * scale) / 2, oy = y + (h - r.height * scale) / 2;
  return [ox + (evt.clientX - r.left) * scale, oy + (evt.clientY - r.top) * scale, scale];
}

function setView(v) {
  S.view = v;
  const s = document.querySelector("#board svg");
  if (s) s.setAttribute("viewBox", v.join(" "));
}

function setupMap() {
  const board = $("board");
  board.addEventListener("wheel", (evt) => {
    if (!S.view) return;
    evt.preventDefault();
    const [px, py] = svgPoint(evt);
    const f = evt.deltaY > 0 ? 1.2 : 1 / 1.2;
    const [x, y, w, h] = S.view;
    const nw = Math.min(Math.max(w * f, 60), S.full[2] * 3);
    const k = nw / w;
    setView([px - (px - x) * k, py - (py - y) * k, w * k, h * k]);
  }, { passive: false });
  let drag = null;
  board.addEventListener("mousedown", (evt) => {
    if (!S.view) return;
    drag = { x: evt.clientX, y: evt.clientY, v: S.view.slice(), moved: false };
  });
  window.addEventListener("mousemove", (evt) => {
    if (drag) {
      const dx = evt.clientX - drag.x, dy = evt.clientY - drag.y;
      if (Math.abs(dx) + Math.abs(dy) > 4) { drag.moved = true; board.classList.add("dragging"); }
      if (drag.moved) {
        const [, , scale] = svgPoint(evt);
        setView([drag.v[0] - dx * scale, drag.v[1] - dy * scale, drag.v[2], drag.v[3]]);
      }
    }
    hover(evt);
  });
  window.addEventListener("mouseup", (evt) => {
    const was = drag;
    drag = null;
    board.classList.remove("dragging");
    if (was && !was.moved && board.contains(evt.target)) click(evt);
  });
  board.addEventListener("mouseleave", () => { $("tip").hidden = true; });
  $("fit").onclick = () => { if (S.full) setView(S.full.slice()); };
  $("undo").onclick = () => send({ type: "undo" });
  $("save").onclick = () => { $("saves").hidden = false; send({ type: "snapshots" }); };
  $("save-now").onclick = () => send({ type: "save" });
  $("saves-close").onclick = () => { $("saves").hidden = true; };
}

function hexAt(evt) {
  const unit = evt.target.closest && evt.target.closest("g.unit");
  if (unit) return { unit: unit.getAttribute("data-id"), hex: unit.getAttribute("data-hex") };
  const poly = evt.target.closest && evt.target.closest("polygon.hex");
  if (poly) return { hex: poly.getAttribute("data-label") };
  // a label or marker above the hex: find the polygon under the pointer
  const under = document.elementsFromPoint(evt.clientX, evt.clientY)
    .find((e) => e.matches && e.matches("polygon.hex"));
  return under ? { hex: under.getAttribute("data-label") } : null;
}

function hover(evt) {
  const tip = $("tip");
  if (!$("board").contains(evt.target)) { tip.hidden = true; return; }
  const at = hexAt(evt);
  showRoute(at && at.hex ? at.hex : null);
  if (!at) { tip.hidden = true; return; }
  const lines = [];
  if (at.unit) lines.push(unitTip(at.unit));
  if (at.hex) {
    const info = S.hello && S.hello.hexes[at.hex];
    lines.push(info ? `hex ${at.hex}: ${info[0]}, height ${info[1]}${info[2].length ? ", " + info[2].join(", ") : ""}`
                    : `hex ${at.hex}`);
    const d = decision();
    if (d) for (const c of d.choices) if (c.hex === at.hex && inGroup(c) && c.note) lines.push(`${c.label}: ${c.note}`);
    if (d && d.paths && d.paths[at.hex]) {
      lines.push("route: " + d.paths[at.hex].map(([h, c]) => `${h} (${c})`).join(" > "));
    } else if (d && reachAt(at.hex)) {
      const r = reachAt(at.hex);
      lines.push(`reach: ${r.cost} to get there; route: ` + r.route.map(([h, c]) => `${h} (${c})`).join(" > "));
    }
  }
  tip.textContent = lines.join("\n");
  const r = $("boardwrap").getBoundingClientRect();
  tip.style.left = `${evt.clientX - r.left + 14}px`;
  tip.style.top = `${evt.clientY - r.top + 14}px`;
  tip.hidden = false;
}

function click(evt) {
  const at = hexAt(evt);
  if (!at) return;
  const d = decision();
  if (at.unit && d && (d.widget === "placement" || d.widget === "units" ||
      d.choices.some((c) => inGroup(c) && (c.unit === at.unit || c.group === at.unit)))) {
    clickUnit(at.unit);
  } else if (at.hex) clickHex(at.hex);
}

setupMap();
connect();
