import { describe, expect, it } from "vitest";
import { baseGraph, loadFiles, single } from "./test-fixtures";

const provider = (name: string, extra = "") =>
  `import { defineProvider } from "@studio/spec";\n` +
  `export default defineProvider({ name: "${name}", ${extra} factory: (config) => ({ name: "${name}", async *stream() { yield { type: "finish", finishReason: "stop" }; } }) });`;

describe("custom providers (providers/*.ts)", () => {
  it("loads a provider file and lets a model name it", async () => {
    const snap = await loadFiles({
      ...baseGraph(),
      "providers/local_echo.ts": provider("local_echo", `description: "answers locally",`),
      "models/echoing.ts": `import { defineModel } from "@studio/spec";\nexport default defineModel({ name: "echoing", provider: "local_echo", model: "echo-1" });`,
    });
    expect(snap.diagnostics).toEqual([]);
    const record = snap.providers.get("local_echo")!;
    expect(record).toMatchObject({ name: "local_echo", file: "providers/local_echo.ts", description: "answers locally" });
    const instance = record.factory({ timeoutMs: 1000, fetch });
    expect(instance.name).toBe("local_echo");
  });

  it("names the file, the field and the fix for a bad provider file, and leaves it out", async () => {
    const snap = await loadFiles({
      ...baseGraph(),
      "providers/renamed.ts": provider("other_name"),
      "providers/no_factory.ts": `export default { name: "no_factory", factory: "not a function" };`,
      "providers/openai.ts": provider("openai"),
      "providers/broken.ts": `export default {`,
    });
    expect(single(snap, "providers/renamed.ts", "name")).toMatchObject({
      kind: "providers",
      message: expect.stringContaining(`"other_name" differs from its file name "renamed"`),
      fix: expect.stringContaining(`name: "renamed"`),
    });
    expect(single(snap, "providers/no_factory.ts", "factory").message).toMatch(/`factory` must be a function .*got string/);
    expect(single(snap, "providers/openai.ts", "name").message).toMatch(/built-in provider/);
    expect(single(snap, "providers/broken.ts", "").message).toMatch(/failed to load/);
    expect([...snap.providers.keys()]).toEqual([]);
    // The rest of the graph still loads.
    expect(snap.agents.has("a")).toBe(true);
  });

  it("reports a model whose provider is neither built in nor defined, naming the defined ones", async () => {
    const snap = await loadFiles({
      ...baseGraph(),
      "providers/local_echo.ts": provider("local_echo"),
      "models/lost.ts": `import { defineModel } from "@studio/spec";\nexport default defineModel({ name: "lost", provider: "local_ecko", model: "x" });`,
    });
    const d = single(snap, "models/lost.ts", "provider");
    expect(d.message).toContain(`names provider "local_ecko"`);
    expect(d.message).toContain("defined: local_echo");
    expect(d.fix).toContain(`"openai", "openai-responses", "anthropic", "google", "local_echo"`);
    expect(d.fix).toContain("providers/local_ecko.ts");
  });
});
