import { describe, expect, it } from "vitest";
import { newPassword, passwordProblem } from "./password-policy";

describe("new passwords", () => {
  it("need at least 10 characters", () => {
    expect(passwordProblem("short-pw1")).toMatch(/at least 10/);
    expect(passwordProblem("long-enough-1")).toBeNull();
  });

  it("cannot be whitespace only, however long", () => {
    expect(passwordProblem("        ")).toMatch(/only spaces/);
    expect(passwordProblem(" \t \n            ")).toMatch(/only spaces/);
  });

  it("cannot be a common password from the shipped list, in any case", () => {
    for (const p of ["1234567890", "qwertyuiop", "Password123", "PASSWORD123", "1q2w3e4r5t"]) expect([p, passwordProblem(p)]).toEqual([p, expect.stringMatching(/most common/)]);
  });

  it("reports the problem as a validation issue", () => {
    const r = newPassword.safeParse("        ");
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toMatch(/only spaces/);
  });
});
