import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { redactConsole } from "./console-redaction";
import { createSecretBox, REVEALED_LIMIT } from "./secret-box";

/** A console whose lines the test reads. */
function recorder() {
  const lines: unknown[][] = [];
  const write = (...args: unknown[]) => void lines.push(args);
  return { lines, target: { log: write, info: write, warn: write, error: write, debug: write, trace: write } };
}

describe("console redaction", () => {
  it("masks every value the box sealed or opened, in formatted lines and inside objects", () => {
    const box = createSecretBox(randomBytes(32));
    const { lines, target } = recorder();
    const restore = redactConsole(box, target);
    target.log("before any secret", { n: 1 });
    expect(lines.at(-1)).toEqual(["before any secret", { n: 1 }]);
    const sealed = box.encrypt("sk-live-1234567890");
    box.decrypt(box.encrypt("pw-other-secret"));
    target.log("token %s", "sk-live-1234567890");
    target.error({ nested: { auth: "pw-other-secret" } });
    expect(lines.slice(-2)).toEqual([["token ••••"], ["{ nested: { auth: '••••' } }"]]);
    expect(box.decrypt(sealed)).toBe("sk-live-1234567890");
    restore();
    target.log("sk-live-1234567890");
    expect(lines.at(-1)).toEqual(["sk-live-1234567890"]);
  });

  it("keeps the console's own methods until the last box leaves", () => {
    const { lines, target } = recorder();
    const original = target.warn;
    const a = createSecretBox(randomBytes(32));
    const b = createSecretBox(randomBytes(32));
    const leaveA = redactConsole(a, target);
    const leaveB = redactConsole(b, target);
    a.encrypt("alpha-secret");
    b.encrypt("beta-secret-longer");
    target.warn("alpha-secret beta-secret-longer");
    expect(lines.at(-1)).toEqual(["•••• ••••"]);
    leaveA();
    target.warn("alpha-secret beta-secret-longer");
    expect(lines.at(-1)).toEqual(["alpha-secret ••••"]);
    leaveB();
    expect(target.warn).toBe(original);
  });

  it("remembers the most recent values, longest first, and ignores values too short to mask", () => {
    const box = createSecretBox(randomBytes(32));
    box.encrypt("abc");
    box.encrypt("short");
    box.encrypt("a-much-longer-value");
    expect(box.revealed()).toEqual(["a-much-longer-value", "short"]);
    for (let i = 0; i < REVEALED_LIMIT; i++) box.encrypt(`value-${i}`);
    expect(box.revealed()).toHaveLength(REVEALED_LIMIT);
    expect(box.revealed()).not.toContain("short");
  });
});
