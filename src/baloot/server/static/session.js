// The signed-in player's requests to the players' API: JSON in and out, every change carrying
// the session's CSRF token (GET /api/account tells it), each refusal an Error holding the
// server's one line (every error the server sends is one). One module for every page that
// speaks for a player; it imports nothing, so that Node can test it.

let csrf = null;

/** Remember the session of `account` ({ player, csrf } as GET /api/account answers). */
export function useSession(account) {
  csrf = account && account.player ? account.csrf : null;
}

/** Whether a player is signed in on this page. */
export function signedIn() {
  return csrf !== null;
}

/** `method` on `path` with `body` as JSON: the answer's JSON, or an Error with its one line. */
export async function call(method, path, body) {
  const headers = {};
  if (csrf) headers["X-CSRF-Token"] = csrf;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(answer.error || `HTTP ${response.status}`);
  return answer;
}
