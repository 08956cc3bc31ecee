import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadRegistry } from "./registry";
import { makeAgentsDir, projectRoot, removeDir, specModulePath } from "./test-fixtures";
import { writeNameTypes } from "./write-name-types";

let dir = "";
afterEach(async () => {
  if (dir) await removeDir(dir);
});

describe("the name types the registry writes on reload in development", () => {
  it("writes studio-names.d.ts once per change of names, and keeps the last good file while the graph has errors", async () => {
    dir = await makeAgentsDir({ "models/fast.ts": `export default { name: "fast", provider: "openai", model: "m" };` });
    const load = () => loadRegistry({ dir, projectRoot, specModulePath });
    expect(await writeNameTypes(await load())).toBe(true);
    expect(await writeNameTypes(await load())).toBe(false);
    const file = path.join(dir, "studio-names.d.ts");
    expect(await fs.readFile(file, "utf8")).toContain('type Models = "fast";');
    await fs.writeFile(path.join(dir, "models/broken.ts"), `export default { name: "broken" };`);
    expect(await writeNameTypes(await load())).toBe(false);
    expect(await fs.readFile(file, "utf8")).toContain('type Models = "fast";');
  });
});
