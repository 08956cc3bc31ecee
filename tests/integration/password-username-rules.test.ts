import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, signIn, type As } from "../helpers/accounts";
import { startTestApp, type TestApp } from "../helpers/test-app";

let t: TestApp;
let admin: As;
beforeAll(async () => {
  t = await startTestApp({ env: { ADMIN_USERNAME: "admin", ADMIN_PASSWORD: "pw-admin-12345" } });
  admin = await signIn(t.url, "admin", "pw-admin-12345");
});
afterAll(async () => t?.close());

describe("password rules", () => {
  it("refuses a new password shorter than 10 characters, made of whitespace only, or on the common-password list", async () => {
    const cases: [string, RegExp][] = [
      ["        ", /only spaces/],
      ["               ", /only spaces/],
      ["short-pw1", /at least 10/],
      ["password123", /most common/],
      ["QWERTYUIOP", /most common/],
    ];
    for (const [password, message] of cases) {
      const res = await admin("POST", "/api/users", { username: "weak", password });
      expect([password, res.status, res.body.error.code]).toEqual([password, 400, "VALIDATION_ERROR"]);
      expect(res.body.error.details).toEqual([{ path: "password", message: expect.stringMatching(message) }]);
    }
    const created = await admin("POST", "/api/users", { username: "strong", password: "a-fine-passphrase" });
    expect(created.status).toBe(201);
    // A reset follows the same rules.
    expect((await admin("PATCH", `/api/users/${created.body.user.id}`, { password: "          " })).status).toBe(400);
  });
});

describe("usernames are case-insensitive", () => {
  it("refuses ADMIN beside admin, and signs in whatever the case typed", async () => {
    const taken = await admin("POST", "/api/users", { username: "ADMIN", password: "another-fine-pass", role: "admin" });
    expect([taken.status, taken.body.error.code]).toEqual([409, "CONFLICT"]);
    const made = await admin("POST", "/api/users", { username: "Frank", password: "franks-passphrase" });
    expect(made.status).toBe(201);
    expect(made.body.user.username).toBe("frank");
    expect((await admin("POST", "/api/users", { username: "FRANK", password: "franks-passphrase" })).status).toBe(409);
    const frank = await signIn(t.url, "fRaNk", "franks-passphrase");
    expect((await frank("GET", "/api/auth/me")).body.user.username).toBe("frank");
    expect((await (await signIn(t.url, "Admin", "pw-admin-12345"))("GET", "/api/auth/me")).body.user.username).toBe("admin");
    expect((await client(t.url, "")("GET", "/api/users")).status).toBe(401);
  });
});
