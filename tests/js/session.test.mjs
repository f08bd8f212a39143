// A player's requests (session.js): the CSRF token sent only once signed in, JSON both ways,
// a refusal an Error with the server's one line. tests/pages/test_pages_logic.py runs it.

import "./browser.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";

import { call, signedIn, useSession } from "../../src/baloot/server/static/session.js";

/** Answers every fetch with `status` and `body`, and keeps what was asked. */
function answering(status, body) {
  const asked = [];
  globalThis.fetch = async (path, init) => {
    asked.push({ path, ...init });
    return { ok: status < 400, status, json: async () => body };
  };
  return asked;
}

test("a guest's request carries no CSRF token, a signed-in player's carries the session's", async () => {
  const asked = answering(200, { fine: true });
  useSession({ player: null, csrf: null });
  assert.equal(signedIn(), false);
  assert.deepEqual(await call("POST", "/api/account/login", { name: "Saad" }), { fine: true });
  assert.equal(asked[0].headers["X-CSRF-Token"], undefined);
  assert.equal(asked[0].body, JSON.stringify({ name: "Saad" }));
  useSession({ player: { id: "p1", name: "Saad" }, csrf: "tok" });
  assert.equal(signedIn(), true);
  await call("DELETE", "/api/queue");
  assert.equal(asked[1].headers["X-CSRF-Token"], "tok");
  assert.equal(asked[1].body, undefined);
  assert.equal(asked[1].headers["Content-Type"], undefined);
});

test("a refusal is an Error holding the server's one line", async () => {
  answering(409, { error: "that name is taken" });
  await assert.rejects(call("POST", "/api/account/register", {}), /^Error: that name is taken$/);
});
