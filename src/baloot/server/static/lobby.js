// The lobby: play against bots in one tap, come back to the tables this browser holds a
// seat at, create a table (rules, seats, timer, public) and list the public tables.

import { $, el } from "./dom.js";
import { t, fillStatic, withLang } from "./i18n.js";
import { LISTED_SEATS, botName, botPlayer } from "./protocol.js";
import { botLine, botWord, flagWord, playersText, presetWord } from "./words.js";
import { forget, myTables, seatUrl } from "./mytables.js";
import { askRematch } from "./result.js";
import { creatorSeat, friendsToInvite, inviteBody, receivedInvites, seatsToGive } from "./invite.js";

/** The bots a person picks by level; every other bot of the server is under "more". */
const LEVELS = ["easy", "medium", "hard"];
import { rememberCommitment } from "./fair.js";
import { call, useSession } from "./session.js";

let options = null;
/** The signed-in player's session ({ player, csrf }), or nulls for a guest. */
let account = { player: null, csrf: null };

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
  // Its name and line in the page's words (its code name, the API's, is the tooltip): a box
  // to tick before its name, a choice after it.
  const name = el("label", { for: id, class: "flag-name", title: flag.name }, flagWord(flag.name));
  return el("div", { class: "flag", "data-flag": flag.name },
    control.tagName === "SELECT" ? [name, control] : [control, name],
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

/** The bots to choose from: the levels first, in words, then the engines under "more". */
function botOptions() {
  const levels = LEVELS.filter((level) => options.bots.includes(level));
  const engines = options.bots.filter((bot) => !LEVELS.includes(bot));
  const option = (bot) => el("option", { value: botPlayer(bot), title: botLine(bot) }, t("bot_option", { name: botWord(bot) }));
  const choices = levels.map(option);
  if (engines.length) choices.push(el("optgroup", { label: t("bots_more") }, engines.map(option)));
  return choices;
}

/** The line under a choice of bot that says what the bot chosen is (none for a person). */
function botLineOf(select) {
  const line = el("p", { class: "bot-line sub", "aria-live": "polite" });
  const sync = () => {
    const bot = botName(select.value);
    line.textContent = bot === null ? "" : botLine(bot);
    line.hidden = !line.textContent;
  };
  select.addEventListener("change", sync);
  line.sync = sync;
  return line;
}

function defaultBot() {
  return botPlayer(options.bots.includes(options.default_bot) ? options.default_bot : options.bots[0]);
}

function seatRow(seat) {
  const kinds = [el("option", { value: "human" }, t("human")), ...botOptions()];
  const select = el("select", { id: "seat-" + seat, "aria-label": t("seat_" + seat) }, kinds);
  const name = el("input", { type: "text", id: "name-" + seat, maxlength: 40, placeholder: t("name_placeholder"), "aria-label": t("name_placeholder") });
  select.value = seat === "S" ? "human" : defaultBot();
  const sync = () => { name.hidden = select.value !== "human"; };
  select.addEventListener("change", sync);
  sync();
  const line = botLineOf(select);
  line.sync();
  return el("div", { class: "seat-row" }, el("strong", {}, t("seat_" + seat)), select, name, line);
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
  $("quick-level").replaceChildren(...botOptions());
  $("quick-level").value = defaultBot();
  const quickLine = botLineOf($("quick-level"));
  $("quick-level").closest(".form-row").after(quickLine);
  quickLine.sync();
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
    // The first deal's commitment, kept before anyone speaks: each seat's page sends its own
    // bytes once it sees it (fair deals), never with the table.
    rememberCommitment(answer.table, answer.fair);
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
  const mine = creatorSeat(humans);
  if (mine) {
    rows.push(el("a", { class: "btn primary", href: withLang(answer.seats[mine].url) }, t("go_seat", { seat: t("seat_" + mine) })));
  } else {
    rows.push(el("a", { class: "btn primary", href: withLang(answer.spectate) }, t("go_watch")));
  }
  $("links").replaceChildren(...rows);
  showInviting(answer);
  $("created").hidden = false;
  $("created").scrollIntoView({ behavior: "smooth", block: "start" });
}

/** Beside the links of the seats made for other people: the creator's friends, each with
 *  "Invite", which gives that seat in one tap (a guest is asked to sign in). */
async function showInviting(created) {
  const box = $("invite-friends");
  const seats = seatsToGive(created);
  box.replaceChildren();
  box.hidden = seats.length === 0;
  if (!seats.length) return;
  if (!account.player) {
    box.append(el("p", { class: "sub" }, t("inv_sign_in"), " ",
      el("a", { href: withLang("/account") }, t("qm_sign_in_link"))));
    return;
  }
  let friends = [];
  try {
    const response = await fetch("/api/friends");
    friends = friendsToInvite(response.ok ? (await response.json()).friends : []);
  } catch (err) {
    friends = [];
  }
  const status = el("p", { class: "status-line", role: "status", "aria-live": "polite" });
  for (const give of seats) {
    const heading = el("h3", { class: "invite-title" }, t("inv_give_title", { seat: t("seat_" + give.seat) }));
    const list = friends.length
      ? el("ul", { class: "tables-list friends-list", "data-invite-seat": give.seat },
        friends.map((friend) => inviteRow(give, friend, status)))
      : el("p", { class: "sub" }, t("inv_no_friends"), " ",
        el("a", { href: withLang("/play") }, t("inv_find_friends")));
    box.append(heading, list);
  }
  box.append(status);
}

function inviteRow(give, friend, status) {
  const button = el("button", { type: "button", class: "btn primary", "data-friend": friend.name }, t("fr_invite"));
  button.addEventListener("click", async () => {
    button.disabled = true;
    status.classList.remove("error");
    try {
      await call("POST", "/api/invites", inviteBody(give, friend.name));
      button.textContent = t("inv_sent");
      status.textContent = t("fr_invited", { name: friend.name });
    } catch (err) {
      button.disabled = false;
      status.classList.add("error");
      status.textContent = t("error_prefix") + err.message;
    }
  });
  const presence = el("span", { class: `presence ${friend.online ? "online" : "offline"}` },
    t(friend.online ? "fr_online" : "fr_offline"));
  return el("li", {}, el("bdi", { class: "friend-name" }, friend.name), presence, button);
}

/** A signed-in player's session, and a note of the invitations they have to answer. */
async function loadAccount() {
  try {
    const response = await fetch("/api/account");
    if (response.ok) account = await response.json();
    useSession(account);
  } catch (err) {
    return;
  }
  if (!account.player) return;
  try {
    const response = await fetch("/api/invites");
    const invites = receivedInvites(response.ok ? await response.json() : null);
    if (!invites.length) return;
    const first = invites[0];
    $("invited-line").textContent = t("inv_line", { name: first.from, seat: t("seat_" + first.seat) });
    $("invited-box").hidden = false;
  } catch (err) {
    // no note: the play page lists them
  }
}

function rulesText(rules) {
  if (typeof rules === "string") return presetWord(rules);
  if (rules && rules.preset) return t("rules_custom", { preset: presetWord(rules.preset) });
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
        hand: table.hand, rules: rulesText(table.rules),
        score: t("score_pair", {
          a: t("team_NS"), x: table.totals ? table.totals.NS : 0,
          b: t("team_EW"), y: table.totals ? table.totals.EW : 0,
        }),
      })),
      el("a", { class: "btn", href: withLang(table.spectate) }, t("watch")))));
  } catch (err) {
    list.replaceChildren(el("li", { class: "error" }, t("load_failed")));
  }
}

/** One tap: a table with the reader in the South seat and three bots of the level chosen,
 *  and straight to it. */
async function quickPlay() {
  const button = $("quick-play");
  const bot = $("quick-level").value;
  button.disabled = true;
  $("quick-error").textContent = "";
  try {
    const response = await fetch("/api/tables", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ seats: { S: "human", N: bot, E: bot, W: bot } }),
    });
    const answer = await response.json().catch(() => ({}));
    if (response.status !== 201) throw new Error(answer.error || String(response.status));
    rememberCommitment(answer.table, answer.fair); // the table's page sends South's bytes after it
    location.assign(withLang(answer.seats.S.url));
  } catch (err) {
    $("quick-error").textContent = t("error_prefix") + err.message;
    button.disabled = false;
  }
}

/** The seats this browser holds, each with its table's state; a table the server no longer
 *  knows is forgotten. */
async function showMyTables() {
  const kept = myTables();
  const rows = await Promise.all(kept.map(async (entry) => {
    try {
      const response = await fetch(`/api/tables/${encodeURIComponent(entry.table)}`);
      if (response.status === 404) {
        forget(entry.table, entry.token);
        return null;
      }
      const table = response.ok ? await response.json() : { status: "" };
      return myTableRow(entry, table);
    } catch (err) {
      return myTableRow(entry, { status: "" });
    }
  }));
  const shown = rows.filter(Boolean);
  $("my-tables").replaceChildren(...shown);
  $("my-tables-box").hidden = shown.length === 0;
}

/** The players of a table as this browser's list says them: "you" in its seat. */
function seatedHere(table, seat) {
  return seat ? { ...table.players, [seat]: t("you") } : table.players;
}

function myTableRow(entry, table) {
  const over = table.status === "over";
  const status = table.status === "playing" ? t("in_play") : over ? t("status_over") : "";
  const note = el("span", { class: "error", role: "alert" });
  // A finished match leads to its rematch: to join it once made, else to make it.
  let ways;
  if (table.rematch) {
    ways = [el("a", { class: "btn primary", href: withLang(seatUrl({ ...entry, table: table.rematch })) }, t("rematch_join"))];
  } else if (over) {
    const rematch = el("button", { type: "button", class: "btn primary", "data-rematch": entry.table }, t("rematch"));
    rematch.addEventListener("click", async () => {
      rematch.disabled = true;
      try {
        location.assign(withLang(seatUrl({ ...entry, table: await askRematch(entry.table, entry.token) })));
      } catch (err) {
        rematch.disabled = false;
        note.textContent = t("rematch_failed", { error: err.message });
      }
    });
    ways = [rematch, el("a", { class: "btn", href: withLang(seatUrl(entry)) }, t("see_result"))];
  } else {
    ways = [el("a", { class: "btn primary", href: withLang(seatUrl(entry)) }, t("resume"))];
  }
  return el("li", { "data-table": entry.table },
    el("span", { class: "players" }, table.players ? playersText(seatedHere(table, entry.seat)) : entry.table),
    status ? el("span", { class: "sub" }, status) : null,
    ...ways,
    el("button", { type: "button", class: "btn", "aria-label": t("forget_label", { table: entry.table }),
      onclick: () => { forget(entry.table, entry.token); showMyTables(); } }, t("forget")),
    note);
}

async function start() {
  fillStatic();
  document.title = t("lobby_title");
  $("create").addEventListener("submit", create);
  $("quick-play").addEventListener("click", quickPlay);
  showMyTables();
  loadAccount();
  try {
    const response = await fetch("/api/options");
    if (!response.ok) throw new Error(String(response.status));
    options = await response.json();
    buildForm();
  } catch (err) {
    $("create-error").textContent = t("load_failed");
    $("create-btn").disabled = true;
    $("quick-play").disabled = true;
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
