import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { redactConsole } from "@/server/runtime/env/console-redaction";
import { createSecretBox } from "@/server/runtime/env/secret-box";
import { createLogger, logFunction } from "./logger";

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
  return { lines, records: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>), destination };
}

describe("the structured log", () => {
  it("writes one JSON object per line with the level's name, the time, the component and the ids given", () => {
    const out = capture();
    const log = createLogger({ level: "info", destination: out.destination }).child({ component: "runtime" });
    logFunction(log)("warn", "tool explode threw", { threadId: "t1", activationId: "a1", error: "kaboom" });
    logFunction(log)("debug", "not at info");
    const [rec, ...rest] = out.records();
    expect(rest).toEqual([]);
    expect(rec).toMatchObject({ level: "warn", component: "runtime", msg: "tool explode threw", threadId: "t1", activationId: "a1", error: "kaboom" });
    expect(new Date(String(rec!.time)).toISOString()).toBe(rec!.time);
  });

  it("masks every secret value the process knows, also where JSON escapes it", () => {
    const box = createSecretBox(new Uint8Array(32).fill(7));
    const plain = 'sk-"quoted"\\value-123';
    box.decrypt(box.encrypt(plain));
    const restore = redactConsole(box);
    try {
      const out = capture();
      const log = createLogger({ level: "debug", destination: out.destination });
      log.error({ header: `Bearer ${plain}`, nested: { value: plain } }, `failed with ${plain}`);
      expect(out.lines).toHaveLength(1);
      expect(out.lines[0]).not.toContain("quoted");
      const rec = out.records()[0]!;
      expect(rec.msg).toBe("failed with ••••");
      expect(rec.header).toBe("Bearer ••••");
      expect(rec.nested).toEqual({ value: "••••" });
    } finally {
      restore();
    }
  });
});
