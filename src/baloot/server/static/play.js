// Play with people: the quick match's queue ("Play now", polled until a table is found) and
// the friends list (requests, online dots, invitations, blocks), for a signed-in player.

import { $, el } from "./dom.js";
import { t, fillStatic, withLang, LANG } from "./i18n.js";
import { presetWord } from "./words.js";
import { call, useSession } from "./session.js";

/** How often the queue is asked while waiting, and the friends list while open (ms). */
const QUEUE_EVERY = 2000;
const FRIENDS_EVERY = 30000;

let polling = null;

function timeText(seconds) {
  const locale = LANG === "ar" ? "ar-SA-u-nu-latn-ca-gregory" : "en-GB";
  return new Date(seconds * 1000).toLocaleTimeString(locale, { timeStyle: "short" });
}

function showQueue(state) {
  const waiting = state.state === "waiting";
  const seated = state.state === "seated";
  $("qm-join").hidden = waiting || seated;
  $("qm-bots").hidden = !waiting;
  $("qm-leave").hidden = !(waiting || seated);
  $("qm-go").hidden = !seated;
  $("qm-status").classList.remove("error");
  $("qm-status").textContent = waiting
    ? t("qm_waiting", { time: timeText(state.since) }) : seated ? t("qm_seated") : "";
  if (seated) $("qm-go").setAttribute("href", withLang(state.url));
  clearTimeout(polling);
  if (waiting) polling = setTimeout(() => queueAction("GET", "/api/queue"), QUEUE_EVERY);
}

async function queueAction(method, path, body) {
  try {
    showQueue(await call(method, path, body));
  } catch (err) {
    $("qm-status").classList.add("error");
    $("qm-status").textContent = err.message;
  }
}

function join() {
  const timer = $("qm-timer").value;
  queueAction("POST", "/api/queue", {
    preset: $("qm-preset").value, timer: timer === "" ? null : Number(timer),
  });
}

async function fillOptions() {
  const options = await call("GET", "/api/options");
  $("qm-preset").replaceChildren(...Object.keys(options.presets).map((name) =>
    el("option", { value: name }, presetWord(name))));
  $("qm-timer").replaceChildren(...options.timers.map((n) =>
    el("option", { value: n === null ? "" : String(n) },
      n === null ? t("timer_none") : t("timer_seconds", { n }))));
}

function seatOfLink(text) {
  try {
    const url = new URL(text, location.origin);
    const match = url.pathname.match(/^\/t\/([A-Za-z0-9_-]+)$/);
    const token = url.searchParams.get("token");
    return match && token ? { table: match[1], token } : null;
  } catch (err) {
    return null;
  }
}

async function friendAction(method, path, body) {
  $("fr-error").textContent = "";
  try {
    const answer = await call(method, path, body);
    await loadFriends();
    return answer;
  } catch (err) {
    $("fr-error").textContent = err.message;
    return null;
  }
}

async function invite(name) {
  const seat = seatOfLink($("fr-seat-link").value.trim());
  if (!seat) {
    $("fr-error").textContent = t("fr_invite_label");
    $("fr-seat-link").focus();
    return;
  }
  const made = await friendAction("POST", "/api/invites", { ...seat, friend: name });
  if (made) $("fr-error").textContent = t("fr_invited", { name });
}

function friendRow(friend) {
  const name = encodeURIComponent(friend.name);
  const button = (key, action) => el("button", { type: "button", class: "btn", onclick: action }, t(key));
  const buttons = {
    friends: [button("fr_invite", () => invite(friend.name)),
      button("fr_remove", () => friendAction("DELETE", `/api/friends/${name}`))],
    asking: [button("fr_accept", () => friendAction("POST", `/api/friends/${name}`)),
      button("fr_remove", () => friendAction("DELETE", `/api/friends/${name}`))],
    asked: [button("fr_remove", () => friendAction("DELETE", `/api/friends/${name}`))],
    blocked: [button("fr_unblock", () => friendAction("DELETE", `/api/blocks/${name}`))],
  }[friend.state] || [];
  if (friend.state !== "blocked") buttons.push(button("fr_block", () => friendAction("POST", `/api/blocks/${name}`)));
  const presence = friend.state === "friends"
    ? el("span", { class: `presence ${friend.online ? "online" : "offline"}` },
      t(friend.online ? "fr_online" : "fr_offline"))
    : el("span", { class: "sub" }, t("fr_state_" + friend.state));
  return el("li", { "data-friend": friend.name }, el("bdi", { class: "friend-name" }, friend.name), presence, ...buttons);
}

async function loadFriends() {
  const [{ friends }, invites] = await Promise.all([call("GET", "/api/friends"), call("GET", "/api/invites")]);
  $("friends").replaceChildren(...(friends.length ? friends.map(friendRow) : [el("li", { class: "sub" }, t("fr_none"))]));
  $("invites-box").hidden = !invites.received.length;
  $("invites").replaceChildren(...invites.received.map((invite) => el("li", { "data-invite": invite.id },
    el("span", {}, t("inv_line", { name: invite.from, seat: t("seat_" + invite.seat) })),
    el("button", { type: "button", class: "btn primary", onclick: async () => {
      const seat = await friendAction("POST", `/api/invites/${invite.id}/accept`);
      if (seat) location.assign(withLang(seat.url));
    } }, t("inv_join")),
    el("button", { type: "button", class: "btn", onclick: () => friendAction("DELETE", `/api/invites/${invite.id}`) }, t("inv_decline")))));
}

async function start() {
  fillStatic();
  document.title = t("qm_title");
  const account = await fetch("/api/account").then((r) => (r.ok ? r.json() : null)).catch(() => null);
  if (!account || !account.player) {
    $("signed-out").hidden = false;
    return;
  }
  useSession(account);
  // The queue is shown once its rules and its state are known: "Play now" tapped before
  // would ask for no preset, and the queue's first answer would then clear what it said.
  await fillOptions();
  await queueAction("GET", "/api/queue");
  for (const id of ["queue-box", "friends-box"]) $(id).hidden = false;
  $("qm-join").addEventListener("click", join);
  $("qm-bots").addEventListener("click", () => queueAction("POST", "/api/queue/bots"));
  $("qm-leave").addEventListener("click", () => queueAction("DELETE", "/api/queue"));
  $("fr-ask-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("fr-name").value.trim();
    if (name) friendAction("POST", `/api/friends/${encodeURIComponent(name)}`);
  });
  await loadFriends().catch((err) => { $("fr-error").textContent = err.message; });
  setInterval(() => loadFriends().catch(() => {}), FRIENDS_EVERY);
}

start();
