// The server's JSON API: requests with the session's cookie, and refusals as errors that
// carry the server's code and parameters (the page words them).

/** A refusal from the server: its code (`game_over`, `illegal_move`, …), parameters and
 * English message. */
export class ApiFailure extends Error {
  constructor(
    readonly code: string,
    readonly params: Record<string, unknown>,
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** Sends a request to the API; its JSON answer, or an `ApiFailure`. */
export async function api<T = any>(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  const init: RequestInit = { method, headers: { ...headers }, credentials: "same-origin" };
  if (body !== undefined) {
    if (body instanceof Blob || body instanceof ArrayBuffer) {
      (init.headers as Record<string, string>)["Content-Type"] = "application/octet-stream";
      init.body = body;
    } else {
      (init.headers as Record<string, string>)["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
  }
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    throw new ApiFailure("network", {}, `the server cannot be reached (${(e as Error).message})`, 0);
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const e = data.error || { code: "http", message: `HTTP ${response.status}`, params: {} };
    throw new ApiFailure(e.code, e.params || {}, e.message, response.status);
  }
  return data as T;
}

/** A fresh key for `Idempotency-Key`: a request sent again with it makes nothing twice. */
export function idempotencyKey(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The WebSocket URL of an API path. */
export function socketUrl(path: string): string {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${path}`;
}
