// Inviting a friend in one tap (invite.js): the seats a creator gives, the friends offered,
// the body sent. tests/pages/test_pages_logic.py runs it.

import { test } from "node:test";
import assert from "node:assert/strict";

import {
  creatorSeat, friendsToInvite, inviteBody, receivedInvites, seatsToGive,
} from "../../src/baloot/server/static/invite.js";

const seat = (letter) => ({ token: `tok-${letter}`, url: `/t/T1?token=tok-${letter}` });

test("the creator sits South when South is a human seat, else at the first listed", () => {
  assert.equal(creatorSeat(["N", "S"]), "S");
  assert.equal(creatorSeat(["W", "E"]), "E");
  assert.equal(creatorSeat([]), undefined);
});

test("the seats to give are the human seats but the creator's, in the listed order", () => {
  const created = { table: "T1", seats: { W: seat("W"), S: seat("S"), N: seat("N") } };
  assert.deepEqual(seatsToGive(created), [
    { table: "T1", seat: "N", token: "tok-N" },
    { table: "T1", seat: "W", token: "tok-W" },
  ]);
  assert.deepEqual(seatsToGive({ table: "T2", seats: { S: seat("S") } }), []);
  assert.deepEqual(seatsToGive({ table: "T3", seats: { E: seat("E"), W: seat("W") } }), [
    { table: "T3", seat: "W", token: "tok-W" },
  ]);
  assert.deepEqual(seatsToGive(null), []);
  assert.deepEqual(seatsToGive({ table: "T4" }), []);
});

test("friends only are offered a seat, the online first, then by name", () => {
  const friends = [
    { name: "Zaid", state: "friends", online: false },
    { name: "Asked", state: "asked", online: false },
    { name: "Nora", state: "friends", online: true },
    { name: "Blocked", state: "blocked", online: false },
    { name: "Adel", state: "friends", online: false },
    { name: "Asking", state: "asking", online: false },
    { name: "سعد", state: "friends", online: true },
  ];
  assert.deepEqual(friendsToInvite(friends).map((f) => f.name), ["Nora", "سعد", "Adel", "Zaid"]);
  assert.deepEqual(friendsToInvite(undefined), []);
  assert.deepEqual(friendsToInvite([null, { state: "friends" }]), []);
});

test("an invitation names the table, the seat, its token and the friend", () => {
  const give = { table: "T1", seat: "N", token: "tok-N" };
  assert.deepEqual(inviteBody(give, "Nora"), { table: "T1", seat: "N", token: "tok-N", friend: "Nora" });
});

test("the invitations received are read from the answer, none from anything else", () => {
  const one = { id: "i1", from: "Saad", seat: "N", table: "T1" };
  assert.deepEqual(receivedInvites({ received: [one], sent: [] }), [one]);
  assert.deepEqual(receivedInvites({ error: "sign in first" }), []);
  assert.deepEqual(receivedInvites(null), []);
});
