// The account page: sign in or register (the seats this browser holds go with it, to be the
// account's), then sign out, change the password or delete the account. Every POST but
// signing in and registering carries the session's CSRF token, which GET /api/account tells.

import { $ } from "./dom.js";
import { t, fillStatic } from "./i18n.js";
import { myTables } from "./mytables.js";
import { call, useSession } from "./session.js";

/** POSTs `body` to the account API; the answer's JSON, or an Error with its one line. */
function post(path, body = {}) {
  return call("POST", path, body);
}

/** The seats this browser holds, as the API takes them. */
function heldSeats() {
  return myTables().map((entry) => ({ table: entry.table, token: entry.token }));
}

function show(account, said = "") {
  useSession(account);
  const player = account.player;
  $("guest").hidden = Boolean(player);
  $("member").hidden = !player;
  $("signed-in-as").textContent = player ? t("signed_in_as", { name: player.name }) : "";
  $("operator-link").hidden = !(player && account.operator); // operators alone see the link
  $("account-status").textContent = said;
  $("account-error").textContent = "";
  for (const form of document.querySelectorAll("form")) form.reset();
}

function failed(err) {
  $("account-error").textContent = t("error_prefix") + err.message;
}

/** Sends `form`'s fields (with `extra`) to `path`, then shows what the answer says. */
function onSubmit(form, path, said, extra = () => ({})) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const fields = Object.fromEntries(new FormData(form).entries());
    const button = form.querySelector("button");
    button.disabled = true;
    try {
      const answer = await post(path, { ...fields, ...extra() });
      show(answer.player === undefined ? { player: null, csrf: null } : answer, t(said));
    } catch (err) {
      failed(err);
    } finally {
      button.disabled = false;
    }
  });
}

async function start() {
  fillStatic();
  document.title = t("account_title");
  onSubmit($("login"), "/api/account/login", "signed_in", () => ({ tokens: heldSeats() }));
  onSubmit($("register"), "/api/account/register", "registered", () => ({ tokens: heldSeats() }));
  onSubmit($("change-password"), "/api/account/password", "password_changed");
  onSubmit($("delete-account"), "/api/account/delete", "account_deleted");
  $("logout").addEventListener("click", async () => {
    try {
      show(await post("/api/account/logout"), t("signed_out"));
    } catch (err) {
      failed(err);
    }
  });
  try {
    const response = await fetch("/api/account");
    if (!response.ok) throw new Error(t("load_failed"));
    show(await response.json());
  } catch (err) {
    show({ player: null, csrf: null });
    failed(err);
  }
}

start();
