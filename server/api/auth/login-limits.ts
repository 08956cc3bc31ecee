/**
 * Sign-in throttling, two ways at once:
 * - **per client address**: at most `perSource` failed sign-ins in a sliding minute, whatever the usernames. An
 *   attacker on one address is stopped there, and nobody else shares that address's bucket.
 * - **per username**: failures against one username from every address, forgotten after a quiet quarter of an hour.
 *   Past `freeFailures`, each further attempt waits a growing delay (1 s, 2 s, 4 s…) after the last failure, never
 *   more than `maxDelayMs`. That slows down an attack spread over many addresses to a few guesses a minute, and it is
 *   never a lockout: the right password, from an address that is not itself limited, gets in after at most that delay.
 * An attempt counts as a failure from the moment it starts (so a burst of parallel requests cannot slip through
 * before the first result) and is taken back when it succeeds. State lives in this process's memory.
 */
export interface LoginLimitOptions {
  perSource: number;
  windowMs: number;
  freeFailures: number;
  maxDelayMs: number;
  /** How long a username's failures are remembered after the last one. */
  quietMs: number;
  now: () => number;
}

export const defaultLoginLimits: LoginLimitOptions = {
  perSource: 10,
  windowMs: 60_000,
  freeFailures: 20,
  maxDelayMs: 15_000,
  quietMs: 15 * 60_000,
  now: Date.now,
};

interface UserFailures {
  count: number;
  last: number;
}

/** Refused: wait this long (the `Retry-After`). */
export interface LoginRefusal {
  retryAfterMs: number;
  reason: "source" | "username";
}

/** A started attempt: report its outcome once. */
export interface LoginAttempt {
  succeeded(): void;
  failed(): void;
}

const MAX_KEYS = 50_000;

export class LoginLimiter {
  private readonly sources = new Map<string, number[]>();
  private readonly users = new Map<string, UserFailures>();
  private readonly opts: LoginLimitOptions;

  constructor(opts: Partial<LoginLimitOptions> = {}) {
    this.opts = { ...defaultLoginLimits, ...opts };
  }

  /**
   * Start an attempt of `username` from `source`, or say how long to wait. A null source (the address is unknown: no
   * front server recorded it) is not counted, so that unknown clients do not all share one bucket that anyone could
   * fill; the username limit still applies.
   */
  begin(source: string | null, username: string): LoginAttempt | LoginRefusal {
    const now = this.opts.now();
    this.prune(now);
    const user = username.toLowerCase();
    const key = source ?? "";
    const recent = source === null ? [] : (this.sources.get(key) ?? []).filter((t) => now - t < this.opts.windowMs);
    if (recent.length >= this.opts.perSource) {
      this.sources.set(key, recent);
      return { reason: "source", retryAfterMs: recent[0]! + this.opts.windowMs - now };
    }
    const failures = this.userFailures(user, now);
    const wait = failures ? failures.last + this.delayAfter(failures.count) - now : 0;
    if (wait > 0) return { reason: "username", retryAfterMs: wait };

    const stamp = now;
    if (source !== null) {
      recent.push(stamp);
      this.sources.set(key, recent);
    }
    let settled = false;
    return {
      succeeded: () => {
        if (settled) return;
        settled = true;
        const list = source === null ? undefined : this.sources.get(key);
        const i = list?.indexOf(stamp) ?? -1;
        if (i >= 0) list!.splice(i, 1);
        this.users.delete(user);
      },
      failed: () => {
        if (settled) return;
        settled = true;
        const at = this.opts.now();
        const current = this.userFailures(user, at);
        this.users.set(user, { count: (current?.count ?? 0) + 1, last: at });
      },
    };
  }

  /** The wait before the next attempt of a username that has failed `count` times. */
  delayAfter(count: number): number {
    if (count < this.opts.freeFailures) return 0;
    return Math.min(this.opts.maxDelayMs, 1000 * 2 ** (count - this.opts.freeFailures));
  }

  private userFailures(user: string, now: number): UserFailures | undefined {
    const f = this.users.get(user);
    if (f && now - f.last >= this.opts.quietMs) {
      this.users.delete(user);
      return undefined;
    }
    return f;
  }

  /** Keep the tables bounded: drop what no longer limits anyone. */
  private prune(now: number): void {
    if (this.sources.size > MAX_KEYS) {
      for (const [k, ts] of this.sources) if (ts.every((t) => now - t >= this.opts.windowMs)) this.sources.delete(k);
    }
    if (this.users.size > MAX_KEYS) {
      for (const [k, f] of this.users) if (now - f.last >= this.opts.quietMs) this.users.delete(k);
    }
  }
}

export const isRefusal = (r: LoginAttempt | LoginRefusal): r is LoginRefusal => "retryAfterMs" in r;
