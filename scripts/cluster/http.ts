/** The chaos run's HTTP calls through nginx: every answer timed, none thrown. */

export interface Answer<T = unknown> {
  /** 0: no answer (connection refused or cut, or the time limit). */
  status: number;
  body: T;
  replayed: boolean;
  /** Why there was no answer (status 0): the fetch error's cause. */
  error?: string;
  /** When it was sent and how long the answer took (ms). */
  at: number;
  ms: number;
}

export interface Account {
  id: string;
  token: string;
  username: string;
}

/** Every request answered, for the outage figures (how fast a refusal came). */
export const answered: Answer[] = [];

export async function call<T>(
  base: string,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
  key?: string,
  timeoutMs = 15_000,
  resend = true,
): Promise<Answer<T>> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers['x-auth-token'] = token;
  if (key) headers['idempotency-key'] = key;
  const at = Date.now();
  let answer: Answer<T>;
  try {
    const res = await fetch(base + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text.slice(0, 200);
    }
    answer = { status: res.status, body: parsed as T, replayed: res.headers.get('idempotent-replayed') !== null, at, ms: Date.now() - at };
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name;
    // As the renderer's client: a read or a keyed call whose connection failed (not timed out) is sent once more.
    if (resend && (method === 'GET' || key) && cause !== 'TimeoutError') {
      await new Promise((r) => setTimeout(r, 300));
      return call<T>(base, method, path, token, body, key, timeoutMs, false);
    }
    answer = { status: 0, body: null as T, replayed: false, at, ms: Date.now() - at, error: cause };
  }
  answered.push(answer);
  return answer;
}

/** The error code of a refusal's body, if any. */
export function errorCode(answer: Answer): string | undefined {
  const error = (answer.body as { error?: unknown } | null)?.error;
  return typeof error === 'string' ? error : undefined;
}

/** Registers `count` users through the API: the first with `invite`, the rest with the first's invites. */
export async function register(base: string, invite: string, count: number, prefix: string): Promise<Account[]> {
  const accounts: Account[] = [];
  let codes = [invite];
  for (let i = 0; i < count; i++) {
    const username = `${prefix}${i}`;
    const reg = await call<{ token: string; user: { _id: string } }>(base, 'POST', '/api/auth/register', undefined, {
      username,
      email: `${username}@example.com`,
      password: 'secret-pass',
      dateOfBirth: '1990-01-01',
      inviteCode: codes.shift(),
    });
    if (reg.status !== 201) throw new Error(`register ${username}: ${reg.status} ${JSON.stringify(reg.body)}`);
    if (i === 0) {
      const invites = await call<{ code: string; status: string }[]>(base, 'GET', `/invites/${reg.body.user._id}`, reg.body.token);
      codes = invites.body.filter((inv) => inv.status === 'available').map((inv) => inv.code);
    }
    accounts.push({ id: reg.body.user._id, token: reg.body.token, username });
  }
  return accounts;
}

/** `call`, throwing unless it answered 2xx. */
export async function must<T>(base: string, method: string, path: string, token?: string, body?: unknown, key?: string): Promise<T> {
  const answer = await call<T>(base, method, path, token, body, key);
  if (answer.status < 200 || answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}
