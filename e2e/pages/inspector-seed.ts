import Database from "better-sqlite3";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { type APIRequestContext } from "@playwright/test";
import { E2E_DATA_DIR } from "../env";
import { createThread } from "./chat-api";

const iso = (d = new Date()) => d.toISOString().replace("Z", "+00:00");

/**
 * A big tree for the inspector, seeded directly: the threads are created over the REST API (so they are real
 * threads the runtime knows), then linked in the database the way spawns link them (parentId, a registry entry in
 * the parent, the `name:` tag) with one request log each for the token and cost roll-ups. Returns the ids: the root,
 * its `wide` direct children, and a `deep` chain hanging off the first child.
 */
export async function seedBigTree(request: APIRequestContext, opts: { wide: number; deep: number }) {
  const root = await createThread(request, { agent_id: "insp_lead" });
  const create = () => createThread(request, { agent_id: "fact_check" });
  const wide: string[] = [];
  for (let i = 0; i < opts.wide; i += 20) {
    wide.push(...(await Promise.all(Array.from({ length: Math.min(20, opts.wide - i) }, create))));
  }
  const deep: string[] = [];
  for (let i = 0; i < opts.deep; i++) deep.push(await create());

  const db = new Database(path.join(E2E_DATA_DIR, "app.db"));
  try {
    db.pragma("busy_timeout = 5000");
    const link = db.prepare('UPDATE "Thread" SET "parentId" = ?, "name" = ?, "tags" = ? WHERE "id" = ?');
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
    const add = (parent: string, child: string, name: string, i: number) => {
      link.run(parent, name, JSON.stringify([`name:${name}`]), child);
      const status = i % 3 === 0 ? "running" : i % 3 === 1 ? "idle" : `Step ${i}: checking`;
      entry.run(randomUUID(), parent, child, "fact_check", "Fact check", "Checks one claim.", 1, 0, name, null, status, "implicit", "fact_check", null, Date.now() * 1000 + i, iso());
      const at = new Date(Date.now() - 60_000 + i * 100);
      log.run(randomUUID(), child, "a", 1, "fast", "openai", "fake", 1, "{}", "success", 100, 20, 0, 0.001, 400, 80, iso(at), iso(new Date(at.getTime() + 400)));
    };
    db.transaction(() => {
      wide.forEach((c, i) => add(root, c, `Check ${String(i + 1).padStart(3, "0")}`, i));
      deep.forEach((c, i) => add(i === 0 ? wide[0]! : deep[i - 1]!, c, `Level ${i + 2}`, i));
    })();
  } finally {
    db.close();
  }
  return { root, wide, deep };
}
