// The manasolver playground: build a board, ask a payment question, see the answer drawn on it.
// Plain JavaScript, no library. It talks only to the server it was loaded from:
// GET /v1/cards (card names), GET /v1/examples (the bundled boards), POST /v1/query (answers).
// The board, the question and the policy live in the address (#board=…&cost=…), so a link
// reproduces them.
"use strict";

const STEPS = ["untap", "upkeep", "draw", "main1", "beginning_of_combat", "declare_attackers",
  "declare_blockers", "combat_damage", "end_of_combat", "main2", "end", "cleanup"];
const DEFAULT_POLICY = ["no_sacrifice", "min_life", "keep_castable", "keep_colors", "min_waste",
  "prefer_lands", "min_sources", "use_pool"];
const EXTRA_CRITERIA = ["max_colors_spent", "min_energy", "min_convoke", "min_improvise", "min_delve"];
const CRITERION_WORDS = {
  no_sacrifice: "sacrifice nothing unless needed",
  min_life: "pay the least life, take the least damage",
  keep_castable: "keep the hand's costs payable",
  keep_colors: "keep the most colors available",
  min_waste: "produce the least unspent mana",
  prefer_lands: "tap lands before other permanents",
  min_sources: "tap the fewest permanents",
  use_pool: "spend floating mana first",
  max_colors_spent: "spend the most colors (converge)",
  min_energy: "pay the least energy",
  min_convoke: "convoke the fewest creatures",
  min_improvise: "improvise the fewest artifacts",
  min_delve: "delve the fewest cards",
};
const HYBRID_ORDER = ["WU", "UB", "BR", "RG", "GW", "WB", "UR", "BG", "RW", "GU"];
const COLORS = "WUBRG";
const NEEDS_COST = new Set(["pay", "can_pay", "max_x", "payments"]);

// ------------------------------------------------------------------------------------------
// the page's state

const page = {
  board: emptyBoard(),
  query: "pay",
  cost: "",
  x: "",
  player: "",
  policy: DEFAULT_POLICY.map((name) => ({ name, on: true }))
    .concat(EXTRA_CRITERIA.map((name) => ({ name, on: false }))),
  extra: "",
  answer: null,       // the last answer object
  asked: null,        // the query it answers
  shownPayment: 0,    // for payments: which one is drawn
  examples: [],
  sources: { require: [], exclude: [], preserve: [] },  // the player's word on permanents, by id
  byHand: null,       // paying by hand: {partial: [...], guide: the last guide answer} or null
};

const SOURCE_KINDS = ["require", "exclude", "preserve"];
const SOURCE_WORDS = { require: "tap this one", exclude: "never use", preserve: "keep if possible" };

function emptyBoard() {
  return {
    players: [{ name: "you", life: 20 }, { name: "opponent", life: 20 }],
    turn: { active: "you", step: "main1", stack_empty: true },
    battlefield: [],
  };
}

const $ = (sel, root) => (root || document).querySelector(sel);
const $$ = (sel, root) => Array.from((root || document).querySelectorAll(sel));

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// ------------------------------------------------------------------------------------------
// mana symbols, drawn with the Mana font

function symbols(text) {
  const out = [];
  const re = /\{([^{}]*)\}/g;
  let m;
  while ((m = re.exec(text || "")) !== null) out.push(m[1]);
  return out;
}

function canonical(inner) {
  const parts = inner.toUpperCase().split("/");
  const phyrexian = parts.length > 1 && parts[parts.length - 1] === "P";
  const core = phyrexian ? parts.slice(0, -1) : parts;
  if (core.length === 2 && COLORS.includes(core[0]) && COLORS.includes(core[1])) {
    const pair = HYBRID_ORDER.includes(core[0] + core[1]) ? core[0] + core[1] : core[1] + core[0];
    return "{" + pair[0] + "/" + pair[1] + (phyrexian ? "/P" : "") + "}";
  }
  return "{" + core.concat(phyrexian ? ["P"] : []).join("/") + "}";
}

function symbolClass(inner) {
  const s = canonical(inner).slice(1, -1).toLowerCase();
  if (/^\d+$/.test(s)) return Number(s) <= 20 ? "ms-" + Number(s) : null;
  if (/^[wubrgcxyzse]$/.test(s)) return "ms-" + s;
  if (s === "t") return "ms-tap";
  if (s === "q") return "ms-untap";
  const parts = s.split("/");
  if (parts.length === 2 && parts[1] === "p" && COLORS.toLowerCase().includes(parts[0])) return "ms-" + parts[0] + "p";
  if (parts.length === 2 && (parts[0] === "2" || parts[0] === "c")) return "ms-" + parts[0] + parts[1];
  if (parts.length >= 2 && parts.slice(0, 2).every((c) => COLORS.toLowerCase().includes(c)))
    return "ms-" + parts[0] + parts[1] + (parts[2] === "p" ? "p" : "");
  return null;
}

function drawSymbol(inner, attrs) {
  const cls = symbolClass(inner);
  const name = canonical(inner);
  const base = Object.assign({ title: name, dataset: { symbol: name } }, attrs || {});
  if (cls) {
    base.class = "ms ms-cost ms-shadow " + cls + (attrs && attrs.class ? " " + attrs.class : "");
    base["aria-label"] = name;
    return el("i", base);
  }
  base.class = "sym-text" + (attrs && attrs.class ? " " + attrs.class : "");
  return el("span", base, name);
}

function drawMana(text, empty) {
  const syms = symbols(text);
  const box = el("span", { class: "mana", dataset: { mana: text || "" } });
  if (!syms.length) box.append(el("span", { class: "muted", text: empty === undefined ? "none" : empty }));
  for (const s of syms) box.append(drawSymbol(s));
  return box;
}

// ------------------------------------------------------------------------------------------
// the board in the address: #board=z<base64url deflate-raw JSON> (or j<base64url JSON>)

function toBase64Url(bytes) {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const bin = atob(b64 + "===".slice((b64.length + 3) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

async function pipe(bytes, stream) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

async function encodeBoard(board) {
  const bytes = new TextEncoder().encode(JSON.stringify(board));
  if (typeof CompressionStream === "function") return "z" + toBase64Url(await pipe(bytes, new CompressionStream("deflate-raw")));
  return "j" + toBase64Url(bytes);
}

async function decodeBoard(text) {
  if (text.startsWith("{")) return JSON.parse(text);
  const bytes = fromBase64Url(text.slice(1));
  const raw = text[0] === "z" ? await pipe(bytes, new DecompressionStream("deflate-raw")) : bytes;
  return JSON.parse(new TextDecoder().decode(raw));
}

let addressTimer = null;
let addressWritten = "";

function saveAddress() {
  clearTimeout(addressTimer);
  addressTimer = setTimeout(writeAddress, 150);
}

async function writeAddress() {
  const params = new URLSearchParams();
  params.set("board", await encodeBoard(page.board));
  if (page.query !== "pay") params.set("query", page.query);
  if (page.cost) params.set("cost", page.cost);
  if (page.x !== "") params.set("x", page.x);
  if (page.player) params.set("player", page.player);
  const policy = policyValue();
  if (policy) params.set("policy", policy.join(","));
  if (page.extra.trim()) params.set("extra", page.extra);
  addressWritten = "#" + params.toString();
  if (location.hash !== addressWritten) history.replaceState(null, "", addressWritten);
  document.body.dataset.address = "saved";
}

async function readAddress() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  if (!params.has("board")) return false;
  try {
    const board = await decodeBoard(params.get("board"));
    if (!board || typeof board !== "object" || Array.isArray(board)) throw new Error("not a board object");
    page.board = board;
  } catch (err) {
    showNotice("The board in the address could not be read: " + err.message);
    return false;
  }
  page.query = params.get("query") || "pay";
  page.cost = params.get("cost") || "";
  page.x = params.get("x") || "";
  page.player = params.get("player") || "";
  page.extra = params.get("extra") || "";
  setPolicy(params.has("policy") ? params.get("policy").split(",").filter(Boolean) : null);
  return true;
}

// ------------------------------------------------------------------------------------------
// card-name completion from GET /v1/cards

// The zone a card list's names go to: the search offers only cards that can be there.
const LIST_ZONES = { hand: "hand", commander: "command", graveyard: "graveyard" };

// A name field that completes from the server's card search (ranked for `zone`) and hands a
// known name to `onPick`: Enter or `commit()` take the highlighted suggestion, else the name
// typed when the search knows it, else the best suggestion for what is typed; a name the search
// doesn't know is never picked, the list says so instead.
function completer(input, onPick, zone) {
  const wrap = input.closest(".complete") || input.parentElement;
  const list = el("ul", { class: "suggestions", role: "listbox", hidden: true });
  wrap.append(list);
  let seq = 0;
  let timer = null;
  let closing = null;
  let active = -1;

  const choices = () => $$("li[role=option]", list);
  const close = () => { list.hidden = true; list.replaceChildren(); active = -1; delete list.dataset.query; };
  const mark = (i) => {
    choices().forEach((li, j) => li.classList.toggle("active", j === i));
    active = i;
  };
  const pick = (name) => { close(); onPick(name); };

  async function lookUp() {
    timer = null;
    const q = input.value.trim();
    const mine = ++seq;
    if (!q) { close(); return; }
    const params = { q, limit: "12" };
    if (zone) params.zone = zone;
    let data;
    try {
      const res = await fetch("/v1/cards?" + new URLSearchParams(params));
      data = await res.json();
    } catch (err) {
      return;
    }
    if (mine !== seq || !data || !Array.isArray(data.cards)) return;
    showFound(q, data.cards);
  }

  function showFound(q, cards) {
    list.replaceChildren(...cards.map((card) => el("li", {
      role: "option", dataset: { name: card.name },
      onmousedown: (ev) => { ev.preventDefault(); pick(card.name); },
    }, el("span", { class: "s-name", text: card.name }), " ", drawMana(card.mana_cost, ""),
    el("span", { class: "s-type muted", text: card.type_line }))));
    list.dataset.query = q;
    list.hidden = false;
    if (cards.length) mark(0);
    else {
      active = -1;
      list.append(el("li", { class: "none muted", text: `no card named “${q}”${zone ? " " + ZONE_WORDS[zone] : ""}` }));
    }
  }

  async function commit() {
    const typed = input.value.trim();
    if (!typed) return;
    if (timer !== null || list.dataset.query !== typed) { clearTimeout(timer); await lookUp(); }
    if (input.value.trim() !== typed || list.dataset.query !== typed) return;  // typed on: that search decides
    const items = choices();
    const exact = items.find((li) => li.dataset.name.toLowerCase() === typed.toLowerCase());
    const chosen = items[active] || exact || items[0];
    if (chosen) pick(chosen.dataset.name);
    else { clearTimeout(closing); input.focus(); }  // the list says no card has that name: correct it
  }

  // a blur closes the list a moment later (a click on an item lands first); typing again
  // before that moment keeps it: the field was left and taken back
  input.addEventListener("input", () => {
    clearTimeout(closing);
    clearTimeout(timer);
    timer = setTimeout(lookUp, 60);
  });
  input.addEventListener("focus", () => clearTimeout(closing));
  input.addEventListener("blur", () => { clearTimeout(closing); closing = setTimeout(close, 150); });
  input.addEventListener("keydown", (ev) => {
    const items = choices();
    if (ev.key === "ArrowDown" && items.length) { ev.preventDefault(); mark((active + 1) % items.length); }
    else if (ev.key === "ArrowUp" && items.length) { ev.preventDefault(); mark((active - 1 + items.length) % items.length); }
    else if (ev.key === "Escape") close();
    else if (ev.key === "Enter") { ev.preventDefault(); commit(); }
  });
  return { close, commit };
}

// How the list says where no card of that name can go.
const ZONE_WORDS = {
  battlefield: "that can be a permanent", command: "that can be a commander",
  hand: "that can be in a hand", graveyard: "that can be in a graveyard",
};

// ------------------------------------------------------------------------------------------
// rendering the board

function playerNames() {
  return (page.board.players || []).map((p) => p && p.name).filter((n) => typeof n === "string");
}

function options(select, values, current, blank) {
  select.replaceChildren(...(blank !== undefined ? [el("option", { value: "", text: blank })] : []),
    ...values.map((v) => el("option", { value: v, text: v })));
  select.value = values.includes(current) ? current : (blank !== undefined ? "" : values[0] || "");
}

function changed(rerender) {
  page.answer = null;
  if (rerender) renderBoard();
  clearAnswerMarks();
  saveAddress();
}

function renderBoard() {
  const board = page.board;
  if (!Array.isArray(board.players)) board.players = [];
  if (!Array.isArray(board.battlefield)) board.battlefield = [];
  renderPlayers();
  const names = playerNames();
  const turn = board.turn && typeof board.turn === "object" ? board.turn : {};
  options($("#turn-active"), names, turn.active || names[0]);
  options($("#turn-step"), STEPS, turn.step || "main1");
  $("#turn-stack").checked = turn.stack_empty !== false;
  options($("#add-controller"), names, $("#add-controller").value || names[0]);
  options($("#payer"), names, page.player, "first player");
  renderPermanents();
}

function renderPlayers() {
  const box = $("#players");
  box.replaceChildren(...page.board.players.map((player, i) => {
    const where = `players[${i}]`;
    const p = player && typeof player === "object" ? player : {};
    const num = (field, label) => el("label", {}, label, " ", el("input", {
      type: "number", class: "num", value: p[field] ?? "", placeholder: field === "energy" ? "0" : "20",
      dataset: { where: `${where}.${field}`, field },
      onchange: (ev) => {
        const v = ev.target.value.trim();
        if (v === "") delete p[field]; else p[field] = Number(v);
        changed(false);
      },
    }));
    const poolInput = el("input", {
      type: "text", class: "pool", value: p.pool || "", placeholder: "{R}{G}", spellcheck: "false",
      dataset: { where: `${where}.pool` },
      oninput: (ev) => {
        const v = ev.target.value.trim();
        if (v) p.pool = v; else delete p.pool;
        poolDrawn.replaceWith(poolDrawn = drawMana(p.pool, ""));
        changed(false);
      },
    });
    let poolDrawn = drawMana(p.pool, "");
    return el("div", { class: "player", dataset: { index: i, where } },
      el("div", { class: "row" },
        el("input", {
          type: "text", class: "player-name", value: p.name || "", "aria-label": "player name",
          dataset: { where: `${where}.name` },
          onchange: (ev) => renamePlayer(i, ev.target.value.trim()),
        }),
        num("life", "life"), num("energy", "energy"),
        el("label", {}, "floating ", poolInput), poolDrawn,
        el("button", {
          type: "button", class: "small remove", title: "Remove this player", text: "×",
          onclick: () => { page.board.players.splice(i, 1); changed(true); },
        })),
      cardList(p, "hand", `${where}.hand`, "hand (kept castable)"),
      cardList(p, "commander", `${where}.commander`, "commander"),
      cardList(p, "graveyard", `${where}.graveyard`, "graveyard"));
  }));
}

function renamePlayer(i, name) {
  const old = page.board.players[i].name;
  page.board.players[i].name = name;
  for (const perm of page.board.battlefield) if (perm.controller === old) perm.controller = name;
  if (page.board.turn && page.board.turn.active === old) page.board.turn.active = name;
  changed(true);
}

function cardList(player, field, where, label) {
  const cards = Array.isArray(player[field]) ? player[field] : [];
  const input = el("input", {
    type: "text", class: "card-add", placeholder: "+ card", spellcheck: "false",
    "aria-label": `add a card to ${field}`, dataset: { list: field },
  });
  const box = el("div", { class: "cards-line", dataset: { where, field } },
    el("span", { class: "muted list-label", text: label + ":" }),
    ...cards.map((card, j) => el("span", { class: "chip", dataset: { where: `${where}[${j}]` } },
      typeof card === "string" ? card : (card && card.name) || "?",
      el("button", {
        type: "button", class: "chip-x", title: "remove", text: "×",
        onclick: () => { cards.splice(j, 1); if (!cards.length) delete player[field]; changed(true); },
      }))),
    el("span", { class: "complete" }, input));
  completer(input, (name) => {
    if (!Array.isArray(player[field])) player[field] = [];
    player[field].push(name);
    changed(true);
    const again = $(`.cards-line[data-where="${where}"] input.card-add`);
    if (again) again.focus();
  }, LIST_ZONES[field]);
  return box;
}

function renderPermanents() {
  const perms = page.board.battlefield;
  $("#perm-count").textContent = `(${perms.length})`;
  const names = playerNames();
  const ids = perms.map((p) => p && p.id).filter(Boolean);
  $("#permanents").replaceChildren(...perms.map((perm, i) => {
    const where = `battlefield[${i}]`;
    const p = perm && typeof perm === "object" ? perm : {};
    const flag = (field, label) => el("label", { class: "flag" }, el("input", {
      type: "checkbox", class: field, checked: !!p[field], dataset: { where: `${where}.${field}` },
      onchange: (ev) => {
        if (ev.target.checked) p[field] = true; else delete p[field];
        tile.classList.toggle(field, ev.target.checked);
        changed(false);
      },
    }), label);
    const controller = el("select", {
      class: "controller", dataset: { where: `${where}.controller` },
      onchange: (ev) => {
        if (ev.target.value === names[0]) delete p.controller; else p.controller = ev.target.value;
        changed(true);
      },
    });
    options(controller, names, p.controller || names[0]);
    const attached = el("select", {
      class: "attached", dataset: { where: `${where}.attached_to` },
      onchange: (ev) => {
        if (ev.target.value) p.attached_to = ev.target.value; else delete p.attached_to;
        changed(false);
      },
    });
    options(attached, ids.filter((id) => id !== p.id), p.attached_to, "—");
    const counters = el("input", {
      type: "text", class: "counters", value: countersText(p.counters), placeholder: "counters",
      spellcheck: "false", dataset: { where: `${where}.counters` },
      onchange: (ev) => {
        const parsed = parseCounters(ev.target.value);
        if (parsed === null) { fieldError(`${where}.counters`, "write counters as name=number, e.g. charge=2 time=3"); return; }
        if (Object.keys(parsed).length) p.counters = parsed; else delete p.counters;
        changed(false);
      },
    });
    const name = p.card || p.name || "(no name)";
    const tile = el("div", {
      class: "perm" + (p.tapped ? " tapped" : "") + (p.sick ? " sick" : "")
        + ((p.controller || names[0]) !== names[0] ? " theirs" : ""),
      dataset: { index: i, id: p.id || "", where },
      onmouseenter: () => linkHover(p.id, true), onmouseleave: () => linkHover(p.id, false),
    },
    el("div", { class: "perm-head" },
      el("span", { class: "perm-name", dataset: { where: `${where}.card` }, text: name }),
      el("button", {
        type: "button", class: "small remove", title: "Remove", text: "×",
        onclick: () => { perms.splice(i, 1); changed(true); },
      })),
    el("div", { class: "perm-row" }, flag("tapped", "tapped"), flag("sick", "sick"), controller),
    el("div", { class: "perm-row small-fields" },
      el("input", {
        type: "text", class: "perm-id", value: p.id || "", "aria-label": "id", title: "id", spellcheck: "false",
        dataset: { where: `${where}.id` },
        onchange: (ev) => { p.id = ev.target.value.trim(); changed(true); },
      }),
      el("label", { title: "counters, as name=number" }, "⊕ ", counters), el("label", { title: "attached to" }, "on ", attached)),
    el("div", { class: "perm-row sources-row" }, ...SOURCE_KINDS.map((kind) => el("button", {
      type: "button", class: "small src" + ((page.sources[kind] || []).includes(p.id) ? " on" : ""),
      dataset: { kind }, title: SOURCE_WORDS[kind], text: kind,
      onclick: () => { if (p.id) toggleSource(p.id, kind); },
    }))),
    el("div", { class: "perm-hand" }),
    el("div", { class: "perm-paid" }));
    for (const kind of SOURCE_KINDS) if ((page.sources[kind] || []).includes(p.id)) tile.classList.add(`src-${kind}`);
    return tile;
  }));
}

function countersText(counters) {
  if (!counters || typeof counters !== "object") return "";
  return Object.entries(counters).map(([k, v]) => `${k}=${v}`).join(" ");
}

function parseCounters(text) {
  const out = {};
  for (const part of text.split(/[\s,]+/).filter(Boolean)) {
    const m = /^([^=:]+)[=:](\d+)$/.exec(part);
    if (!m) return null;
    out[m[1]] = Number(m[2]);
  }
  return out;
}

function newId(name) {
  const stem = name.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "").slice(0, 14) || "perm";
  const taken = new Set(page.board.battlefield.map((p) => p && p.id));
  let n = 1;
  while (taken.has(stem + n)) n += 1;
  return stem + n;
}

function addPermanent(name) {
  const names = playerNames();
  const perm = { id: newId(name), card: name };
  const controller = $("#add-controller").value;
  if (controller && controller !== names[0]) perm.controller = controller;
  page.board.battlefield.push(perm);
  $("#add-card").value = "";
  changed(true);
  $("#add-card").focus();
}

// ------------------------------------------------------------------------------------------
// the policy

function setPolicy(list) {
  if (!list) {
    page.policy = DEFAULT_POLICY.map((name) => ({ name, on: true }))
      .concat(EXTRA_CRITERIA.map((name) => ({ name, on: false })));
    return;
  }
  const rest = DEFAULT_POLICY.concat(EXTRA_CRITERIA).filter((n) => !list.includes(n));
  page.policy = list.map((name) => ({ name, on: true })).concat(rest.map((name) => ({ name, on: false })));
}

function policyValue() {
  const on = page.policy.filter((c) => c.on).map((c) => c.name);
  return on.join(",") === DEFAULT_POLICY.join(",") ? null : on;
}

function renderPolicy() {
  const list = $("#policy");
  let n = 0;
  list.replaceChildren(...page.policy.map((c, i) => {
    const where = c.on ? `policy[${n++}]` : null;
    const move = (d) => {
      const j = i + d;
      if (j < 0 || j >= page.policy.length) return;
      [page.policy[i], page.policy[j]] = [page.policy[j], page.policy[i]];
      renderPolicy(); changed(false);
    };
    return el("li", { class: c.on ? "" : "off", dataset: { name: c.name, where } },
      el("input", {
        type: "checkbox", checked: c.on, "aria-label": c.name,
        onchange: (ev) => { c.on = ev.target.checked; renderPolicy(); changed(false); },
      }),
      el("code", { text: c.name }), " ", el("span", { class: "muted", text: CRITERION_WORDS[c.name] || "" }),
      el("span", { class: "moves" },
        el("button", { type: "button", class: "small up", text: "↑", title: "earlier", onclick: () => move(-1) }),
        el("button", { type: "button", class: "small down", text: "↓", title: "later", onclick: () => move(1) })));
  }));
  const value = policyValue();
  $("#policy-summary").textContent = value ? "(" + value.join(", ") + ")" : "(default)";
}

// ------------------------------------------------------------------------------------------
// the question

function renderQuestion() {
  $("#query-kind").value = page.query;
  $("#cost").value = page.cost;
  $("#x-value").value = page.x;
  $("#extra").value = page.extra;
  if (page.extra.trim()) $("#extra-box").open = true;
  drawCostInput();
  renderPolicy();
}

function drawCostInput() {
  const box = $("#cost-drawn");
  box.replaceChildren(...symbols(page.cost).map((s, i) => drawSymbol(s, { dataset: { symbol: canonical(s), index: i } })));
}

function buildQuery() {
  const q = { query: page.query, state: page.board };
  const costly = NEEDS_COST.has(page.query);  // the questions about paying a cost
  if (costly && page.cost.trim()) q.cost = page.cost.trim();
  const policy = policyValue();
  if (costly && policy) q.policy = policy;
  if (costly && page.x !== "") q.x = Number(page.x);
  const sources = sourcesValue();
  if (costly && sources) q.sources = sources;
  if (page.player) q.player = page.player;
  if (page.extra.trim()) {
    let extra;
    try { extra = JSON.parse(page.extra); } catch (err) {
      return { error: { code: "bad_query", message: "More query fields: not JSON: " + err.message, where: "extra" } };
    }
    if (!extra || typeof extra !== "object" || Array.isArray(extra))
      return { error: { code: "bad_query", message: "More query fields must be a JSON object", where: "extra" } };
    Object.assign(q, extra);
  }
  return q;
}

function sourcesValue() {
  const ids = new Set(page.board.battlefield.map((p) => p && p.id).filter(Boolean));
  const out = {};
  for (const kind of SOURCE_KINDS) {
    const list = page.sources[kind].filter((id) => ids.has(id));
    if (list.length) out[kind] = list;
  }
  return Object.keys(out).length ? out : null;
}

// Clicking a tile's require / exclude / preserve button: a permanent is in one list at most.
function toggleSource(id, kind) {
  const had = page.sources[kind].includes(id);
  for (const k of SOURCE_KINDS) page.sources[k] = page.sources[k].filter((x) => x !== id);
  if (!had) page.sources[kind].push(id);
  markSources();
}

function markSources() {
  for (const tile of $$(".perm")) {
    for (const kind of SOURCE_KINDS) {
      const on = page.sources[kind].includes(tile.dataset.id);
      tile.classList.toggle(`src-${kind}`, on);
      const button = $(`button.src[data-kind="${kind}"]`, tile);
      if (button) button.classList.toggle("on", on);
    }
  }
}

let asking = 0;

// One query to the page's own server; a failure to answer is shown as an error answer.
async function postQuery(query) {
  try {
    const res = await fetch("/v1/query", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(query),
    });
    return await res.json();
  } catch (err) {
    return { error: { code: "network", message: "the server did not answer: " + err.message, where: "" } };
  }
}

async function ask() {
  const query = buildQuery();
  clearErrors();
  const mine = ++asking;
  document.body.dataset.status = "asking";
  $("#answer").dataset.status = "asking";
  $("#ask-status").textContent = "asking…";
  if (query.error) { showAnswer(query, null); return; }
  const started = performance.now();
  const answer = await postQuery(query);
  if (mine !== asking) return;
  $("#ask-status").textContent = `answered in ${Math.round(performance.now() - started)} ms`;
  page.shownPayment = 0;
  showAnswer(answer, query);
}

// ------------------------------------------------------------------------------------------
// the answer, drawn on the board

function clearAnswerMarks() {
  for (const tile of $$(".perm")) {
    tile.classList.remove("paid", "sacrificed", "assisted", "linked", "unsupported", "lit", "made");
    const paid = $(".perm-paid", tile);
    if (paid) paid.replaceChildren();
    const hand = $(".perm-hand", tile);
    if (hand) hand.replaceChildren();
  }
}

function clearErrors() {
  for (const node of $$(".has-error")) node.classList.remove("has-error");
  for (const node of $$(".field-error")) node.remove();
}

function whereElement(where) {
  let path = (where || "").replace(/^state\./, "");
  while (path) {
    const found = $$("[data-where]").find((n) => n.dataset.where === path);
    if (found) return found;
    const cut = Math.max(path.lastIndexOf("."), path.lastIndexOf("["));
    if (cut <= 0) break;
    path = path.slice(0, cut);
  }
  return null;
}

function fieldError(where, message) {
  const target = whereElement(where);
  const note = el("div", { class: "field-error", role: "alert", dataset: { where: where || "" } },
    el("strong", { text: "Error" }), where ? ` at ${where}: ` : ": ", message);
  if (!target) return null;
  target.classList.add("has-error");
  const host = target.closest(".perm") || target.closest(".cards-line") || (target.matches("li, .player") ? target : null);
  if (host) host.append(note);
  else target.insertAdjacentElement("afterend", note);
  // a position in the cost: mark the symbol it names
  const m = /^cost\[(\d+)\]$/.exec(where || "");
  if (m) {
    const sym = $(`#cost-drawn [data-index="${m[1]}"]`);
    if (sym) sym.classList.add("has-error");
  }
  (target.closest(".perm, .player") || target).scrollIntoView({ block: "nearest" });
  return note;
}

function showAnswer(answer, query) {
  page.answer = answer;
  page.asked = query;
  clearAnswerMarks();
  const box = $("#answer");
  box.replaceChildren();
  if (answer && answer.error) {
    const e = answer.error;
    const at = fieldError(e.where, e.message);
    box.append(el("div", { class: "verdict bad", dataset: { code: e.code } },
      el("strong", { text: `Error: ${e.code}` }), el("p", { text: e.message }),
      e.where ? el("p", { class: "muted" }, "at ", el("code", { class: "where", text: e.where }),
        at ? " (marked on the page)" : "") : null));
  } else if (answer) {
    renderResult(box, answer, query);
  }
  box.append(el("details", { class: "raw" }, el("summary", { text: "The answer as JSON" }),
    el("pre", { id: "answer-json", text: JSON.stringify(answer, null, 1) })));
  box.dataset.status = answer && answer.error ? "error" : "answered";
  document.body.dataset.status = "answered";
}

function renderResult(box, answer, query) {
  const kind = query.query;
  if (kind === "options") {
    box.append(el("div", { class: "verdict" }, el("strong", { text: `${answer.options.length} options` }),
      answer.complete === false ? el("span", { class: "warn", text: " (not complete: the list was cut short)" }) : null));
    box.append(el("ol", { class: "options" }, ...answer.options.map((o) => el("li", {}, drawMana(o)))));
    return;
  }
  if (kind === "could_produce") {
    const cp = answer.could_produce || {};
    box.append(el("div", { class: "verdict" }, el("strong", { text: "What each permanent could produce" })));
    for (const tile of $$(".perm")) {
      const colors = cp[tile.dataset.id];
      if (colors) $(".perm-paid", tile).append(el("span", { class: "muted", text: "could produce " }),
        drawMana(colors.map((c) => `{${c}}`).join(""), "nothing"));
    }
    return;
  }
  if (kind === "counts") {
    const facts = el("dl", { class: "facts counts" });
    for (const [key, value] of Object.entries(answer)) {
      let shown = JSON.stringify(value);
      if (Array.isArray(value)) shown = value.join(", ") || "none";
      else if (value && typeof value === "object") shown = Object.entries(value).map(([k, v]) => `${k} ${v}`).join(", ");
      facts.append(el("dt", { text: key.replace(/_/g, " ") }), el("dd", { dataset: { field: key }, text: shown }));
    }
    box.append(el("div", { class: "verdict" }, el("strong", { text: "Counts on this board" })), facts);
    return;
  }
  if (kind === "payments") {
    const list = answer.payments || [];
    box.append(el("div", { class: "verdict" + (list.length ? " good" : " bad") },
      el("strong", { text: `${list.length} payment${list.length === 1 ? "" : "s"}` }),
      answer.complete === false ? el("span", { class: "warn", text: " (more exist: the list was cut at its limit)" }) : null));
    if (list.length) {
      box.append(el("div", { class: "row payment-picker" }, "draw payment ",
        ...list.slice(0, 50).map((_, i) => el("button", {
          type: "button", class: "small" + (i === page.shownPayment ? " on" : ""), text: String(i + 1),
          onclick: () => { page.shownPayment = i; showAnswer(page.answer, page.asked); },
        }))));
      renderPayment(box, list[page.shownPayment], query);
    }
    return;
  }
  if (kind === "max_x") {
    const good = answer.max_x !== null && answer.max_x !== undefined;
    box.append(el("div", { class: "verdict " + (good ? "good" : "bad") },
      el("strong", { class: "max-x", text: good ? `Largest X: ${answer.max_x}` : "No X can be paid" })));
    if (answer.payment) renderPayment(box, answer.payment, query);
    if (answer.reason) renderReason(box, answer.reason);
    renderUnsupported(box, answer);
    return;
  }
  // pay, can_pay
  box.append(el("div", { class: "verdict " + (answer.payable ? "good" : "bad"), dataset: { payable: String(answer.payable) } },
    el("strong", { text: answer.payable ? "Payable" : "Not payable" }),
    query.cost ? el("span", {}, " ", drawMana(query.cost)) : null,
    answer.time_bound ? el("span", { class: "warn", text: " (a time bound stopped the proof that this is the best)" }) : null));
  if (answer.payment) renderPayment(box, answer.payment, query);
  else if (answer.payable && kind === "can_pay") box.append(el("p", { class: "muted", text: "Ask “pay” to see which permanents it taps." }));
  if (answer.reason) renderReason(box, answer.reason);
  renderUnsupported(box, answer);
}

function renderReason(box, reason) {
  box.append(el("div", { class: "reason", dataset: { code: reason.code } },
    el("p", {}, el("code", { text: reason.code }), " ", reason.message),
    reason.missing !== undefined && reason.missing !== null
      ? el("p", { class: "missing" }, el("strong", { text: "Missing: " }), drawMana(reason.missing)) : null));
}

function renderUnsupported(box, answer) {
  const list = answer.unsupported;
  if (!Array.isArray(list) || !list.length) return;
  box.append(el("div", { class: "unsupported" }, el("strong", { text: "Left out as not modelled:" }),
    el("ul", {}, ...list.map((u) => el("li", { dataset: { permanent: u.permanent } },
      el("code", { text: u.permanent }), " ", u.reason)))));
  for (const u of list) {
    const tile = $(`.perm[data-id="${cssEscape(u.permanent)}"]`);
    if (tile) tile.classList.add("unsupported");
  }
}

function cssEscape(text) {
  return window.CSS && CSS.escape ? CSS.escape(String(text)) : String(text).replace(/"/g, '\\"');
}

function manaUnits(text, times) {
  const out = [];
  for (const s of symbols(text)) {
    const c = s.toUpperCase();
    const n = /^\d+$/.test(c) ? Number(c) : 1;
    for (let k = 0; k < n * (times || 1); k++) out.push(/^\d+$/.test(c) ? "1" : c);
  }
  return out;
}

// Which produced mana paid which symbol: the engine says what each activation made and how each
// hybrid or Phyrexian symbol was paid; the mana of one type is interchangeable, so units of the
// exact type go to colored and colorless symbols first and the rest to generic ones.
function linkPayment(costText, payment) {
  const units = Array.isArray(payment.allocation) ? allocationUnits(payment) : [];
  if (!Array.isArray(payment.allocation)) {
    (payment.activations || []).forEach((a, i) => {
      const source = a.permanent || (a.card ? `hand: ${a.card}` : "?");
      for (const t of manaUnits(a.mana, a.times)) units.push({ type: t, source, act: i, used: false });
    });
    for (const t of manaUnits(payment.pool_used)) units.push({ type: t, source: "pool", used: false });
    for (const id of payment.convoked || []) units.push({ type: "*", source: id, how: "convoked", used: false });
    for (const id of payment.improvised || []) units.push({ type: "1", source: id, how: "improvised", used: false });
    for (const card of payment.delved || []) units.push({ type: "1", source: `graveyard: ${card}`, how: "delved", used: false });
  }

  const choices = (payment.choices || []).map((c) => Object.assign({ taken: false }, c));
  const rows = [];
  const byTotal = !costText;
  const typed = byTotal ? symbols(payment.total).map(canonical) : symbols(costText).map(canonical);
  for (const sym of typed) {
    const choice = choices.find((c) => !c.taken && c.symbol === sym);
    let paidAs = sym;
    if (choice) { choice.taken = true; paidAs = choice.paid_as; }
    const inner = sym.slice(1, -1);
    let needs = [];
    if (paidAs === "life") needs = [];
    else if (/^\{\d+\}$/.test(paidAs)) needs = Array(Number(paidAs.slice(1, -1))).fill("1");
    else if (/^\{[XYZ]\}$/.test(paidAs)) needs = Array(Number(payment.x || 0)).fill("1");
    else if (paidAs === "{E}") needs = [];
    else if (paidAs === "{S}") needs = ["*"];
    else needs = [paidAs.slice(1, -1)];
    rows.push({ symbol: sym, inner, paidAs, needs, sources: [], life: paidAs === "life", energy: paidAs === "{E}" });
  }
  const take = (want, exact) => {
    let u = units.find((x) => !x.used && (x.type === want));
    if (!u && !exact) u = units.find((x) => !x.used && x.type !== "*") || units.find((x) => !x.used);
    if (!u && exact) u = units.find((x) => !x.used && x.type === "*");
    if (u) u.used = true;
    return u;
  };
  for (const pass of ["exact", "generic"]) {
    for (const row of rows) {
      for (let k = 0; k < row.needs.length; k++) {
        const want = row.needs[k];
        if (row.sources[k]) continue;
        const isGeneric = want === "1" || want === "*";
        if ((pass === "exact") === isGeneric) continue;
        const u = isGeneric ? take(want === "*" ? "S" : "1", false) : take(want, true);
        row.sources[k] = u ? { source: u.source, type: u.type, how: u.how || "" } : { source: "", type: "", how: "reduced" };
      }
    }
  }
  return { rows, left: units.filter((u) => !u.used) };
}

// The engine's allocation: for each symbol of the total ({1} per generic mana), what paid it.
function allocationUnits(payment) {
  const acts = payment.activations || [];
  const out = [];
  for (const entry of payment.allocation) {
    const by = entry.paid_by || {};
    if ("life" in by) continue;
    let source = "?", how = "";
    if ("activation" in by) {
      const a = acts[by.activation];
      source = a ? (a.permanent || (a.card ? `hand: ${a.card}` : "?")) : "?";
    } else if ("pool" in by) source = "pool";
    else if ("convoke" in by) { source = by.convoke; how = "convoked"; }
    else if ("improvise" in by) { source = by.improvise; how = "improvised"; }
    else if ("delve" in by) { source = `graveyard: ${by.delve}`; how = "delved"; }
    out.push({ type: entry.symbol.slice(1, -1).toUpperCase(), source, act: by.activation, how, used: false });
  }
  return out;
}

const WARNING_WORDS = {
  sacrifices: "sacrifices a permanent", pays_life: "pays life", deals_damage: "deals damage to you",
  spends_energy: "spends energy", floats_mana: "leaves mana floating", uses_preserved: "uses a permanent you wanted to keep",
  discards: "discards cards", exiles: "exiles cards",
};

function renderPayment(box, payment, query) {
  const perms = page.board.battlefield;
  const names = {};
  for (const p of perms) if (p && p.id) names[p.id] = p.card || p.name || p.id;
  const cost = query.cost && NEEDS_COST.has(query.query) ? query.cost : "";
  const linked = linkPayment(cost, payment);

  // the cost, each symbol linked to what paid it
  const symRow = el("div", { class: "cost-links" });
  linked.rows.forEach((row, i) => {
    const ids = row.sources.map((s) => s.source).filter(Boolean);
    const words = row.sources.map((s) => s.how === "reduced" ? "reduced" : s.source === "pool" ? "floating mana"
      : (names[s.source] ? `${names[s.source]} (${s.source})` : s.source) + (s.how && s.how !== "reduced" ? `, ${s.how}` : ""));
    const counted = [];
    for (const w of words) {
      const last = counted[counted.length - 1];
      if (last && last.w === w) last.n += 1; else counted.push({ w, n: 1 });
    }
    const by = row.life ? "2 life" : row.energy ? "energy"
      : counted.map((c) => c.n > 1 ? `${c.w} ×${c.n}` : c.w).join(" + ");
    symRow.append(el("div", {
      class: "cost-sym", tabindex: "0",
      dataset: { index: i, symbol: row.symbol, paidAs: row.paidAs, sources: ids.join(" "), life: row.life ? "1" : "" },
      onmouseenter: () => symHover(ids, true), onmouseleave: () => symHover(ids, false),
      onfocus: () => symHover(ids, true), onblur: () => symHover(ids, false),
    }, drawSymbol(row.inner),
    row.paidAs !== row.symbol ? el("span", { class: "paid-as" }, "as ", row.life ? el("span", { text: "life" }) : drawMana(row.paidAs)) : null,
    el("span", { class: "by", text: by || "—" })));
  });
  const acts = payment.activations || [];
  box.append(el("p", { class: "muted hint" }, acts.length
    ? `${acts.length} permanent${acts.length === 1 ? "" : "s"} activated, highlighted on the board with the mana each gave; point at a symbol to light what paid it.`
    : "Nothing is tapped or activated."));
  box.append(el("h3", { text: cost ? "What paid each symbol" : "The total cost, and what paid each symbol" }), symRow);
  if ((payment.warnings || []).length) {
    box.append(el("ul", { class: "warnings", "aria-label": "Before you confirm" },
      ...payment.warnings.map((code) => el("li", { dataset: { code }, text: WARNING_WORDS[code] || code }))));
  }

  // life, energy, floating and the rest
  const facts = el("dl", { class: "facts" });
  const fact = (label, value, cls) => facts.append(el("dt", { text: label }), el("dd", { class: cls || "" }, value));
  fact("total", drawMana(payment.total, "{0}"), "total");
  if (payment.x) fact("X", String(payment.x), "x");
  fact("life paid", String(payment.life || 0), "life" + (payment.life ? " hot" : ""));
  if (payment.damage) fact("damage taken", String(payment.damage), "damage hot");
  fact("energy paid", String(payment.energy || 0), "energy" + (payment.energy ? " hot" : ""));
  fact("floating after", drawMana(payment.floating, "nothing"), "floating");
  if (payment.pool_used) fact("floating mana spent", drawMana(payment.pool_used), "pool-used");
  for (const [field, label] of [["convoked", "convoked"], ["improvised", "improvised"], ["delved", "delved"]])
    if ((payment[field] || []).length) fact(label, payment[field].join(", "), field);
  if (Array.isArray(payment.score)) {
    fact("score", payment.score.map(([name, value]) => `${name} ${value}`).join(", "), "score");
  }
  box.append(facts);

  // the activations, in order, and the same drawn on the board's tiles
  box.append(el("h3", { text: `Tapped and activated, in this order (${acts.length})` }),
    el("ol", { class: "activations" }, ...acts.map((a, i) => el("li", { dataset: { permanent: a.permanent || "", step: i + 1 } },
      el("strong", { text: a.permanent ? (names[a.permanent] || a.permanent) : `${a.card} (from hand)` }),
      a.permanent ? el("span", { class: "muted", text: ` ${a.permanent}` }) : null, ": ",
      ...(a.costs || []).map((c) => costWord(c)), " → ", drawMana(a.mana),
      a.times && a.times > 1 ? ` ×${a.times}` : "",
      a.sacrificed ? el("span", { class: "muted", text: ` sacrificing ${a.sacrificed.join(", ")}` }) : null,
      a.tapped ? el("span", { class: "muted", text: ` tapping ${a.tapped.join(", ")}` }) : null))));
  const tileOf = (id) => $(`.perm[data-id="${cssEscape(id)}"]`);
  acts.forEach((a, i) => {
    const tile = a.permanent && tileOf(a.permanent);
    if (!tile) return;
    tile.classList.add("paid");
    if ((a.costs || []).some((c) => /sacrifice/i.test(c))) tile.classList.add("sacrificed");
    $(".perm-paid", tile).append(el("span", { class: "step", title: "its place in the order", text: String(i + 1) }),
      el("span", { class: "costs" }, ...(a.costs || []).map((c) => costWord(c))), "→",
      el("span", { class: "gave", dataset: { mana: a.mana }, title: "the mana it gave" }, drawMana(a.mana)),
      a.times && a.times > 1 ? ` ×${a.times}` : "");
    for (const id of (a.sacrificed || []).concat(a.tapped || [])) {
      const other = tileOf(id);
      if (other) { other.classList.add("assisted"); $(".perm-paid", other).append(el("span", { text: `used by ${a.permanent}` })); }
    }
  });
  for (const field of ["convoked", "improvised"]) for (const id of payment[field] || []) {
    const tile = tileOf(id);
    if (tile) { tile.classList.add("paid", "assisted"); $(".perm-paid", tile).append(el("span", { text: field })); }
  }
}

// ------------------------------------------------------------------------------------------
// paying by hand: the sources guide allows are lit, a click activates one

function guideQuery() {
  const q = buildQuery();
  if (q.error) return q;
  q.query = "guide";
  for (const key of ["limit", "backend", "detail"]) delete q[key];
  if (page.cost.trim()) q.cost = page.cost.trim();
  const policy = policyValue();
  if (policy) q.policy = policy;
  const sources = sourcesValue();
  if (sources) q.sources = sources;
  q.partial = page.byHand.partial.map((s) => Object.assign({}, s));
  return q;
}

async function askGuide() {
  const query = guideQuery();
  clearErrors();
  const mine = ++asking;
  document.body.dataset.status = "asking";
  $("#answer").dataset.status = "asking";
  if (query.error) { page.byHand = null; showAnswer(query, null); return; }
  const started = performance.now();
  const answer = await postQuery(query);
  if (mine !== asking || !page.byHand) return;
  $("#ask-status").textContent = `guided in ${Math.round(performance.now() - started)} ms`;
  if (answer.error) { page.byHand = null; showAnswer(answer, query); return; }
  page.byHand.guide = answer;
  drawHand(answer, query);
}

function startByHand() {
  page.byHand = { partial: [], guide: null };
  askGuide();
}

function handStep(step) {
  if (!page.byHand) return;
  page.byHand.partial.push(step);
  askGuide();
}

function drawHand(answer, query) {
  page.answer = answer;
  page.asked = query;
  clearAnswerMarks();
  const partial = page.byHand.partial;
  const tileOf = (id) => $(`.perm[data-id="${cssEscape(id)}"]`);
  partial.forEach((step, i) => {
    const tile = tileOf(step.permanent);
    if (!tile) return;
    tile.classList.add("made");
    $(".perm-paid", tile).append(el("span", { class: "step", text: String(i + 1) }), drawMana(step.mana || ""));
  });
  const byPerm = new Map();
  for (const n of answer.next || []) {
    if (!byPerm.has(n.permanent)) byPerm.set(n.permanent, []);
    byPerm.get(n.permanent).push(n);
  }
  for (const [id, ways] of byPerm) {
    const tile = tileOf(id);
    if (!tile) continue;
    tile.classList.add("lit");
    $(".perm-hand", tile).append(...ways.map((n) => {
      // a cost that takes other permanents (Ashnod's Altar, Springleaf Drum): each choice its own button
      const takes = [["sacrificing", n.sacrificed], ["tapping", n.tapped]]
        .filter(([, ids]) => ids && ids.length).map(([verb, ids]) => `${verb} ${ids.join(", ")}`).join(", ");
      const step = { permanent: id, ability: n.ability, mana: n.mana };
      if (n.sacrificed) step.sacrificed = n.sacrificed.slice();
      if (n.tapped) step.tapped = n.tapped.slice();
      return el("button", {
        type: "button", class: "small hand-step",
        title: `activate ability ${n.ability} for ${n.mana}` + (takes ? `, ${takes}` : ""),
        dataset: { ability: n.ability, mana: n.mana },
        onclick: () => handStep(step),
      }, drawMana(n.mana), takes ? el("span", { class: "muted", text: ` (${takes})` }) : null);
    }));
  }
  const completion = answer.completion;
  const done = !!completion && (completion.activations || []).length === partial.length;
  const box = $("#answer");
  box.replaceChildren();
  box.append(el("div", {
    class: "verdict " + (answer.completable ? "good" : "bad"),
    dataset: { completable: String(answer.completable), done: String(done) },
  },
  el("strong", { text: done ? "Paid by hand" : answer.completable ? "Paying by hand" : "Can't be completed" }),
  query.cost ? el("span", {}, " ", drawMana(query.cost)) : null,
  el("span", { class: "muted", text: ` — ${partial.length} activation${partial.length === 1 ? "" : "s"} made;`
    + (done ? " nothing more is needed." : ` ${byPerm.size} source${byPerm.size === 1 ? "" : "s"} lit: click one's mana to activate it.`) })));
  box.append(el("div", { class: "row" },
    el("button", { type: "button", id: "hand-undo", class: "small", text: "Undo", disabled: !partial.length,
      onclick: () => { partial.pop(); askGuide(); } }),
    el("button", { type: "button", id: "hand-stop", class: "small", text: "Stop paying by hand",
      onclick: () => { page.byHand = null; clearAnswerMarks(); box.replaceChildren(); box.dataset.status = "none"; } })));
  if (answer.reason) renderReason(box, answer.reason);
  if (completion) {
    const rest = (completion.activations || []).slice();
    box.append(el("h3", { text: "The best way to finish" }),
      el("ol", { class: "completion" }, ...rest.map((a) => el("li", { dataset: { permanent: a.permanent || "" } },
        el("strong", { text: a.permanent || a.card }), ": ", ...(a.costs || []).map((c) => costWord(c)), " → ",
        drawMana(a.mana)))));
    if ((completion.warnings || []).length) {
      box.append(el("ul", { class: "warnings" },
        ...completion.warnings.map((code) => el("li", { dataset: { code }, text: WARNING_WORDS[code] || code }))));
    }
  }
  box.append(el("details", { class: "raw" }, el("summary", { text: "The answer as JSON" }),
    el("pre", { id: "answer-json", text: JSON.stringify(answer, null, 1) })));
  box.dataset.status = "answered";
  document.body.dataset.status = "answered";
}

function costWord(c) {
  if (/^\{[^}]+\}$/.test(c)) return drawSymbol(c.slice(1, -1));
  return el("span", { class: "cost-word", text: c });
}

function symHover(ids, on) {
  for (const id of ids) {
    const tile = $(`.perm[data-id="${cssEscape(id)}"]`);
    if (tile) tile.classList.toggle("linked", on);
  }
}

function linkHover(id, on) {
  if (!id) return;
  for (const sym of $$(".cost-sym")) {
    if (sym.dataset.sources.split(" ").includes(id)) sym.classList.toggle("linked", on);
  }
}

function showNotice(text) {
  $("#answer").replaceChildren(el("div", { class: "verdict bad", text }));
}

// ------------------------------------------------------------------------------------------
// examples

async function loadExamples() {
  let data;
  try {
    data = await (await fetch("/v1/examples")).json();
  } catch (err) {
    return;
  }
  page.examples = data.examples || [];
  const nav = $("#examples");
  for (const ex of page.examples) {
    nav.append(el("button", {
      type: "button", class: "example", dataset: { name: ex.name }, text: ex.name,
      onclick: () => useExample(ex),
    }));
  }
}

function useExample(ex, question) {
  page.board = JSON.parse(JSON.stringify(ex.state));
  const q = question || (ex.questions || [])[0];
  useQuestion(q ? q.query : { query: "pay", cost: "" });
  renderBoard();
  renderQuestion();
  clearErrors();
  $("#answer").replaceChildren();
  $("#answer").dataset.status = "none";
  $("#questions").replaceChildren(...(ex.questions || []).map((item) => el("button", {
    type: "button", class: "question small" + (item === q ? " on" : ""), text: item.text, title: JSON.stringify(item.query),
    onclick: () => { useExample(ex, item); ask(); },
  })));
  saveAddress();
}

function useQuestion(query) {
  const rest = Object.assign({}, query);
  page.query = rest.query || "pay"; delete rest.query;
  page.cost = rest.cost || ""; delete rest.cost;
  page.x = rest.x !== undefined ? String(rest.x) : ""; delete rest.x;
  page.player = rest.player || ""; delete rest.player;
  setPolicy(Array.isArray(rest.policy) ? rest.policy : null); delete rest.policy;
  page.extra = Object.keys(rest).length ? JSON.stringify(rest) : "";
}

// ------------------------------------------------------------------------------------------
// start

function wire() {
  const addCard = completer($("#add-card"), addPermanent, "battlefield");
  $("#add-card-button").addEventListener("click", () => addCard.commit());
  $("#add-player").addEventListener("click", () => {
    const taken = new Set(playerNames());
    let n = page.board.players.length + 1;
    while (taken.has(`player${n}`)) n += 1;
    page.board.players.push({ name: `player${n}`, life: 20 });
    changed(true);
  });
  $("#turn-active").addEventListener("change", (ev) => { turnObject().active = ev.target.value; changed(false); });
  $("#turn-step").addEventListener("change", (ev) => { turnObject().step = ev.target.value; changed(false); });
  $("#turn-stack").addEventListener("change", (ev) => { turnObject().stack_empty = ev.target.checked; changed(false); });
  $("#query-kind").addEventListener("change", (ev) => { page.query = ev.target.value; renderQuestion(); changed(false); });
  $("#cost").addEventListener("input", (ev) => { page.cost = ev.target.value; drawCostInput(); changed(false); });
  $("#x-value").addEventListener("input", (ev) => { page.x = ev.target.value.trim(); changed(false); });
  $("#payer").addEventListener("change", (ev) => { page.player = ev.target.value; changed(false); });
  $("#extra").addEventListener("input", (ev) => { page.extra = ev.target.value; changed(false); });
  $("#policy-reset").addEventListener("click", () => { setPolicy(null); renderPolicy(); changed(false); });
  $("#ask-form").addEventListener("submit", (ev) => { ev.preventDefault(); page.byHand = null; ask(); });
  $("#by-hand").addEventListener("click", () => startByHand());
  $("#new-board").addEventListener("click", () => {
    page.board = emptyBoard(); useQuestion({ query: "pay", cost: "" });
    $("#questions").replaceChildren(); renderBoard(); renderQuestion(); changed(false);
  });
  $("#copy-link").addEventListener("click", async () => {
    await writeAddress();
    try { await navigator.clipboard.writeText(location.href); $("#ask-status").textContent = "link copied"; }
    catch (err) { $("#ask-status").textContent = "the link is this page's address"; }
  });
  window.addEventListener("hashchange", async () => {
    if (location.hash === addressWritten) return;
    if (await readAddress()) { renderBoard(); renderQuestion(); }
  });
}

function turnObject() {
  if (!page.board.turn || typeof page.board.turn !== "object") page.board.turn = {};
  return page.board.turn;
}

async function start() {
  wire();
  const fromAddress = await readAddress();
  renderBoard();
  renderQuestion();
  await loadExamples();
  if (!fromAddress) await writeAddress();
  document.body.dataset.status = "ready";
}

// For tests and the curious: the board and the last answer, as the page holds them.
window.playground = {
  board: () => JSON.parse(JSON.stringify(page.board)),
  query: () => buildQuery(),
  answer: () => page.answer,
  link: linkPayment,
  flushAddress: writeAddress,
  sources: () => JSON.parse(JSON.stringify(page.sources)),
  partial: () => (page.byHand ? page.byHand.partial.map((s) => Object.assign({}, s)) : null),
};

document.addEventListener("DOMContentLoaded", start);
