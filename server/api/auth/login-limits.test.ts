import { describe, expect, it } from "vitest";
import { isRefusal, LoginLimiter, type LoginAttempt, type LoginRefusal } from "./login-limits";

function clock() {
  let t = 1_000_000;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

const attempt = (r: LoginAttempt | LoginRefusal): LoginAttempt => {
  if (isRefusal(r)) throw new Error(`refused: ${JSON.stringify(r)}`);
  return r;
};

describe("sign-in limits", () => {
  it("stops one address after 10 failures a minute, whatever usernames it tries, and says when to come back", () => {
    const c = clock();
    const limits = new LoginLimiter({ now: c.now });
    for (let i = 0; i < 10; i++) attempt(limits.begin("10.0.0.1", `user${i}`)).failed();
    const refused = limits.begin("10.0.0.1", "someone-else");
    expect(refused).toMatchObject({ reason: "source" });
    expect((refused as LoginRefusal).retryAfterMs).toBe(60_000);
    // Another address is not affected.
    expect(isRefusal(limits.begin("10.0.0.2", "user0"))).toBe(false);
    c.advance(60_000);
    expect(isRefusal(limits.begin("10.0.0.1", "someone-else"))).toBe(false);
  });

  it("does not put clients of unknown address in one shared bucket; their usernames are still limited", () => {
    const limits = new LoginLimiter({ now: clock().now });
    for (let i = 0; i < 15; i++) attempt(limits.begin(null, `user${i}`)).failed();
    expect(isRefusal(limits.begin(null, "admin"))).toBe(false);
    for (let i = 0; i < 20; i++) attempt(limits.begin(null, "victim")).failed();
    expect(limits.begin(null, "victim")).toMatchObject({ reason: "username" });
  });

  it("counts an attempt from the moment it starts, so a parallel burst cannot slip through", () => {
    const limits = new LoginLimiter({ now: clock().now });
    const started = Array.from({ length: 10 }, () => attempt(limits.begin("10.0.0.1", "admin")));
    expect(limits.begin("10.0.0.1", "admin")).toMatchObject({ reason: "source" });
    // A success gives its slot back.
    started[0]!.succeeded();
    expect(isRefusal(limits.begin("10.0.0.1", "admin"))).toBe(false);
  });

  it("slows a username attacked from many addresses with a growing delay, capped at 15 s", () => {
    const c = clock();
    const limits = new LoginLimiter({ now: c.now });
    for (let i = 0; i < 20; i++) attempt(limits.begin(`10.0.1.${i}`, "Admin")).failed();
    expect(limits.begin("10.0.2.1", "admin")).toEqual({ reason: "username", retryAfterMs: 1000 });
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      const r = limits.begin(`10.0.3.${i}`, "admin");
      if (isRefusal(r)) {
        waits.push(r.retryAfterMs);
        c.advance(r.retryAfterMs);
        attempt(limits.begin(`10.0.3.${i}`, "admin")).failed();
      }
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000, 15_000, 15_000, 15_000, 15_000]);
  });

  it("never keeps the right password from another address out for longer than the cap", () => {
    const c = clock();
    const limits = new LoginLimiter({ now: c.now });
    // A long attack on one username from many addresses.
    for (let i = 0; i < 200; i++) {
      const r = limits.begin(`172.16.${i >> 8}.${i & 255}`, "admin");
      if (isRefusal(r)) c.advance(r.retryAfterMs);
      else r.failed();
    }
    const refused = limits.begin("192.168.1.5", "admin");
    expect(isRefusal(refused) && refused.retryAfterMs).toBeLessThanOrEqual(15_000);
    if (isRefusal(refused)) c.advance(refused.retryAfterMs);
    const owner = attempt(limits.begin("192.168.1.5", "admin"));
    owner.succeeded();
    // Success clears the username's failures: the next sign-in is not delayed.
    expect(isRefusal(limits.begin("192.168.1.6", "admin"))).toBe(false);
  });

  it("forgets a username's failures after a quiet quarter of an hour", () => {
    const c = clock();
    const limits = new LoginLimiter({ now: c.now });
    for (let i = 0; i < 22; i++) {
      const r = limits.begin(`10.0.4.${i}`, "bob");
      if (isRefusal(r)) c.advance(r.retryAfterMs);
      attempt(isRefusal(r) ? limits.begin(`10.0.4.${i}`, "bob") : r).failed();
    }
    expect(isRefusal(limits.begin("10.0.5.1", "bob"))).toBe(true);
    c.advance(15 * 60_000);
    expect(isRefusal(limits.begin("10.0.5.1", "bob"))).toBe(false);
  });
});
