import path from "node:path";
import { type APIRequestContext } from "@playwright/test";
import { linkBigTree } from "../../bench/inspector-tree-seed";
import { E2E_DATA_DIR } from "../env";
import { createThread } from "./chat-api";

/**
 * A big tree for the inspector, seeded directly: the threads are created over the REST API (so they are real
 * threads the runtime knows), then linked in the database the way spawns link them (see linkBigTree). Returns the
 * ids: the root, its `wide` direct children, and a `deep` chain hanging off the first child.
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
  linkBigTree(path.join(E2E_DATA_DIR, "app.db"), { root, wide, deep });
  return { root, wide, deep };
}
