import { describe, expect, it } from "vitest";
import { roleFromClaims } from "./oidc-accounts";

describe("the admin role from an OpenID Connect claim", () => {
  it("matches the configured value, in a list or alone", () => {
    const s = { OIDC_ADMIN_CLAIM: "groups", OIDC_ADMIN_VALUE: "studio-admins" };
    expect(roleFromClaims(s, { groups: ["staff", "studio-admins"] })).toBe("admin");
    expect(roleFromClaims(s, { groups: "studio-admins" })).toBe("admin");
    expect(roleFromClaims(s, { groups: ["staff"] })).toBe("user");
    expect(roleFromClaims(s, {})).toBe("user");
  });

  it("without a value, wants the claim to be true; without a claim, leaves roles to the app", () => {
    expect(roleFromClaims({ OIDC_ADMIN_CLAIM: "is_admin", OIDC_ADMIN_VALUE: undefined }, { is_admin: true })).toBe("admin");
    expect(roleFromClaims({ OIDC_ADMIN_CLAIM: "is_admin", OIDC_ADMIN_VALUE: undefined }, { is_admin: "yes" })).toBe("user");
    expect(roleFromClaims({ OIDC_ADMIN_CLAIM: undefined, OIDC_ADMIN_VALUE: undefined }, { groups: ["admins"] })).toBeNull();
  });
});
