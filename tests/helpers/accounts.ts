/** HTTP helpers for tests with several accounts: each call says who makes it. */
export interface As {
  (method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
  token: string;
}

export function client(base: string, token: string): As {
  const call = (async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    return { status: res.status, body: parsed as any, headers: res.headers };
  }) as As;
  call.token = token;
  return call;
}

export async function signIn(base: string, username: string, password: string): Promise<As> {
  const res = await fetch(`${base}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username, password }) });
  if (!res.ok) throw new Error(`sign-in of ${username} failed: ${res.status}`);
  return client(base, ((await res.json()) as { token: string }).token);
}

/** Create a user as the admin and sign them in. */
export async function newUser(base: string, admin: As, username: string, role: "admin" | "user" = "user"): Promise<As & { id: string }> {
  const password = `pw-${username}-12345`;
  const created = await admin("POST", "/api/users", { username, password, role });
  if (created.status !== 201) throw new Error(`creating ${username}: ${created.status} ${JSON.stringify(created.body)}`);
  const c = (await signIn(base, username, password)) as As & { id: string };
  c.id = created.body.user.id;
  return c;
}
