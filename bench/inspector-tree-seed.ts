/**
 * Links threads into a big subagent tree directly in the SQLite database, the way spawns link them: parentId, the
 * `name:` tag, a registry entry in the parent (statuses running, idle and a custom `sessionStatus` text in turn) and
 * one request log of 120 tokens and $0.001 per child for the roll-ups. The threads themselves are created over the
 * REST API first, so they are real threads the runtime knows. Shared by the inspector benchmark and browser test.
 */
import Database from "better-sqlite3";
import { randomUUID } from "node:crypto";

const iso = (d = new Date()) => d.toISOString().replace("Z", "+00:00");

/** `wide` children under `root`, then a chain `deep` hanging off the first child (root → Check 001 → Level 2 …). */
export function linkBigTree(dbFile: string, tree: { root: string; wide: string[]; deep: string[] }): void {
  const db = new Database(dbFile);
  try {
    db.pragma("busy_timeout = 5000");
    const link = db.prepare('UPDATE "Thread" SET "parentId" = ?, "name" = ?, "tags" = ?, "createdAt" = ? WHERE "id" = ?');
    const entry = db.prepare(
      `INSERT INTO "SubagentEntry" ("id","parentId","childId","name","title","description","resumable","blocking","threadName",
        "spawnGroupId","status","parentCommunication","toolName","toolCallId","createdAt","updatedAt")
       VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
    );
    const log = db.prepare(
      `INSERT INTO "LlmRequestLog" ("id","threadId","side","step","modelName","provider","modelId","attempt","request","status",
        "inputTokens","outputTokens","cachedTokens","cost","latencyMs","ttftMs","startedAt","finishedAt")
       VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
    );
    const base = Date.now() - 120_000;
    let n = 0;
    const add = (parent: string, child: string, name: string, i: number) => {
      // Distinct creation times keep the children in their numbered order.
      link.run(parent, name, JSON.stringify([`name:${name}`]), iso(new Date(base + ++n * 10)), child);
      const status = i % 3 === 0 ? "running" : i % 3 === 1 ? "idle" : `Step ${i}: checking`;
      entry.run(randomUUID(), parent, child, "fact_check", "Fact check", "Checks one claim.", 1, 0, name, null, status, "implicit", "fact_check", null, Date.now() * 1000 + i, iso());
      const at = new Date(Date.now() - 60_000 + i * 100);
      log.run(randomUUID(), child, "a", 1, "fast", "openai", "fake", 1, "{}", "success", 100, 20, 0, 0.001, 400, 80, iso(at), iso(new Date(at.getTime() + 400)));
    };
    db.transaction(() => {
      tree.wide.forEach((c, i) => add(tree.root, c, `Check ${String(i + 1).padStart(3, "0")}`, i));
      tree.deep.forEach((c, i) => add(i === 0 ? tree.wide[0]! : tree.deep[i - 1]!, c, `Level ${i + 2}`, i));
    })();
  } finally {
    db.close();
  }
}
