// The lobby: create a table (rules, seats, timer, public) and list the public tables.

import { $, el } from "./dom.js";
import { t, fillStatic, withLang } from "./i18n.js";
import { LISTED_SEATS, botPlayer } from "./protocol.js";
import { playersText } from "./words.js";

let options = null;

function flagControl(flag) {
  const id = "flag-" + flag.name;
  const choices = flag.choices || [false, true];
  let control;
  if (choices.length === 2 && choices.every((c) => typeof c === "boolean")) {
    control = el("input", { type: "checkbox", id, name: flag.name });
  } else {
    control = el("select", { id, name: flag.name },
      choices.map((c) => el("option", { value: JSON.stringify(c) }, t("choice_" + c))));
  }
  control.addEventListener("change", markChanged);
  return el("div", { class: "flag", "data-flag": flag.name },
    control,
    el("label", { for: id, class: "flag-name" }, flag.name),
    el("div", { class: "flag-help" }, t("flag_" + flag.name) === "flag_" + flag.name ? "" : t("flag_" + flag.name)));
}

function readFlag(name) {
  const control = $("flag-" + name);
  if (control.type === "checkbox") return control.checked;
  return JSON.parse(control.value);
}

function writeFlag(name, value) {
  const control = $("flag-" + name);
  if (control.type === "checkbox") control.checked = !!value;
  else control.value = JSON.stringify(value);
}

function presetValues() {
  const preset = $("preset").value;
  const values = {};
  for (const flag of options.flags) {
    const given = options.presets[preset] ? options.presets[preset][flag.name] : undefined;
    values[flag.name] = given === undefined ? flag.default : given;
  }
  return values;
}

function applyPreset() {
  const values = presetValues();
  for (const flag of options.flags) writeFlag(flag.name, values[flag.name]);
  markChanged();
}

function markChanged() {
  const values = presetValues();
  for (const flag of options.flags) {
    const box = document.querySelector(`[data-flag="${flag.name}"]`);
    box.classList.toggle("changed", readFlag(flag.name) !== values[flag.name]);
  }
}

function rulesBody() {
  const preset = $("preset").value;
  const values = presetValues();
  const changed = {};
  for (const flag of options.flags) {
    const value = readFlag(flag.name);
    if (value !== values[flag.name]) changed[flag.name] = value;
  }
  return Object.keys(changed).length ? { preset, ...changed } : preset;
}

function seatRow(seat) {
  const kinds = [el("option", { value: "human" }, t("human"))];
  for (const bot of options.bots) kinds.push(el("option", { value: botPlayer(bot) }, t("bot_option", { name: bot })));
  const select = el("select", { id: "seat-" + seat, "aria-label": t("seat_" + seat) }, kinds);
  const name = el("input", { type: "text", id: "name-" + seat, maxlength: 40, placeholder: t("name_placeholder"), "aria-label": t("name_placeholder") });
  select.value = seat === "S" ? "human" : botPlayer(options.bots.includes(options.default_bot) ? options.default_bot : options.bots[0]);
  const sync = () => { name.hidden = select.value !== "human"; };
  select.addEventListener("change", sync);
  sync();
  return el("div", { class: "seat-row" }, el("strong", {}, t("seat_" + seat)), select, name);
}

function buildForm() {
  const preset = $("preset");
  preset.replaceChildren(...Object.keys(options.presets).map((name) => {
    const label = t("preset_" + name);
    return el("option", { value: name }, label === "preset_" + name ? name : label);
  }));
  preset.addEventListener("change", applyPreset);
  $("flags").replaceChildren(...options.flags.map(flagControl));
  applyPreset();
  $("seats").replaceChildren(...LISTED_SEATS.map(seatRow));
  $("timer").replaceChildren(...options.timers.map((n) =>
    el("option", { value: n === null ? "" : String(n) }, n === null ? t("timer_none") : t("timer_seconds", { n }))));
}

async function create(event) {
  event.preventDefault();
  const seats = {};
  const names = {};
  for (const seat of LISTED_SEATS) {
    seats[seat] = $("seat-" + seat).value;
    const name = $("name-" + seat).value.trim();
    if (seats[seat] === "human" && name) names[seat] = name;
  }
  const timer = $("timer").value === "" ? null : Number($("timer").value);
  const body = { rules: rulesBody(), seats, names, timer, public: $("public").checked };
  const button = $("create-btn");
  button.disabled = true;
  button.textContent = t("creating");
  $("create-error").textContent = "";
  try {
    const response = await fetch("/api/tables", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    const answer = await response.json().catch(() => ({}));
    if (response.status !== 201 && !response.ok) throw new Error(answer.error || String(response.status));
    showCreated(answer);
    if (body.public) loadTables();
  } catch (err) {
    $("create-error").textContent = t("error_prefix") + err.message;
  } finally {
    button.disabled = false;
    button.textContent = t("create_btn");
  }
}

async function copy(text, button) {
  try {
    await navigator.clipboard.writeText(text);
  } catch (err) {
    const input = button.previousElementSibling;
    input.select();
    document.execCommand("copy");
  }
  button.textContent = t("copied");
  setTimeout(() => { button.textContent = t("copy"); }, 1500);
}

function linkRow(label, url) {
  const input = el("input", { type: "text", readonly: true, value: url, "aria-label": label, onfocus: (e) => e.target.select() });
  const button = el("button", { type: "button", class: "btn" }, t("copy"));
  button.addEventListener("click", () => copy(url, button));
  return el("div", { class: "link-row" }, el("span", {}, label), input, button);
}

function showCreated(answer) {
  const rows = [];
  const humans = Object.keys(answer.seats || {});
  for (const seat of humans) {
    rows.push(linkRow(t("seat_link", { seat: t("seat_" + seat) }), location.origin + answer.seats[seat].url));
  }
  rows.push(linkRow(t("spectate_label"), location.origin + answer.spectate));
  const mine = humans.includes("S") ? "S" : humans[0];
  if (mine) {
    rows.push(el("a", { class: "btn primary", href: withLang(answer.seats[mine].url) }, t("go_seat", { seat: t("seat_" + mine) })));
  } else {
    rows.push(el("a", { class: "btn primary", href: withLang(answer.spectate) }, t("go_watch")));
  }
  $("links").replaceChildren(...rows);
  $("created").hidden = false;
  $("created").scrollIntoView({ behavior: "smooth", block: "start" });
}

function rulesText(rules) {
  if (typeof rules === "string") return rules;
  if (rules && rules.preset) return t("rules_custom", { preset: rules.preset });
  return "";
}

async function loadTables() {
  const list = $("tables");
  try {
    const response = await fetch("/api/tables");
    if (!response.ok) throw new Error(String(response.status));
    const { tables } = await response.json();
    if (!tables.length) {
      list.replaceChildren(el("li", { class: "sub" }, t("no_tables")));
      return;
    }
    list.replaceChildren(...tables.map((table) => el("li", {},
      el("span", { class: "players" }, playersText(table.players)),
      el("span", { class: "sub" }, t("table_row", {
        hand: table.hand, ns: table.totals ? table.totals.NS : 0, ew: table.totals ? table.totals.EW : 0,
        rules: rulesText(table.rules),
      })),
      el("a", { class: "btn", href: withLang(table.spectate) }, t("watch")))));
  } catch (err) {
    list.replaceChildren(el("li", { class: "error" }, t("load_failed")));
  }
}

async function start() {
  fillStatic();
  document.title = t("lobby_title");
  $("create").addEventListener("submit", create);
  try {
    const response = await fetch("/api/options");
    if (!response.ok) throw new Error(String(response.status));
    options = await response.json();
    buildForm();
  } catch (err) {
    $("create-error").textContent = t("load_failed");
    $("create-btn").disabled = true;
  }
  loadTables();
  followLobby();
  setInterval(loadTables, 30000); // in case the live feed is away
}

/** The lobby's live feed: read the tables again whenever the server says they changed. */
function followLobby() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(`${scheme}//${location.host}/ws/lobby`);
  socket.onmessage = () => loadTables();
  socket.onclose = () => setTimeout(followLobby, 10000);
}

start();
