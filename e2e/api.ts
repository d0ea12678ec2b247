/** Who calls the API: an account (by its token, as the desktop app sends it), or a visitor (null). */
export type Caller = { token: string } | null;

/** An answer of the API: its status and its JSON body (null when it sent none or not JSON). */
export interface ApiAnswer<T> {
  status: number;
  body: T;
}

/** The stories' one way to call a running app's API directly (setting up, or checking, what a page did). */
export interface ApiClient {
  /** Calls the API as `who` and answers whatever it answers. */
  request<T = Record<string, unknown>>(
    who: Caller,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<ApiAnswer<T>>;
  /** Sets up what a story is not about: the same call, which throws unless it succeeded, answering the body. */
  call<T = unknown>(who: Caller, method: string, path: string, body?: unknown): Promise<T>;
}

export function apiClient(url: string): ApiClient {
  async function request<T>(who: Caller, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(who ? { 'x-auth-token': who.token } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      // An answer that is not JSON (a page, a bare status): the status says what happened.
    }
    return { status: res.status, body: parsed as T };
  }
  return {
    request,
    async call<T>(who: Caller, method: string, path: string, body?: unknown) {
      const answer = await request<T>(who, method, path, body);
      if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body;
    },
  };
}
