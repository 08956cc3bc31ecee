import { api, waitFor } from "./test-app";

/** Reads of a thread over the REST API that the subagent tests share. */

/** Waits until the thread and every descendant (found through `?parent_id=`) has stopped running. */
export async function settleTreeAt(base: string, id: string, timeoutMs = 20_000): Promise<void> {
  const quiet = async () => {
    const ids = [id];
    for (let i = 0; i < ids.length; i++) {
      const { body } = await api(base, "GET", `/api/threads?parent_id=${ids[i]}&limit=500`);
      ids.push(...body.threads.map((x: any) => x.id));
    }
    for (const x of ids) if ((await api(base, "GET", `/api/threads/${x}`)).body.thread.status === "running") return false;
    return true;
  };
  // Twice in a row: one pass reads the threads one after another, so it can read a parent as idle just before a
  // child's report wakes it and the child as done just after (the report ends the child and wakes the parent in one
  // transaction). The second pass reads that parent again.
  await waitFor(async () => (await quiet()) && (await quiet()), timeoutMs);
}

/** Every message of the thread, silent ones included. */
export const messagesAt = async (base: string, id: string) =>
  (await api(base, "GET", `/api/threads/${id}/messages?includeSilent=true`)).body.messages as any[];

/** The thread's child registry. */
export const registryAt = async (base: string, id: string) => (await api(base, "GET", `/api/threads/${id}/subagents`)).body.subagents as any[];

/** The thread's tool results as `name:status:content`. */
export const toolResultsAt = async (base: string, id: string) =>
  (await messagesAt(base, id)).filter((m: any) => m.role === "tool").map((m: any) => `${m.name}:${m.tool_status}:${m.content}`);
