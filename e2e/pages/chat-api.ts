import { expect, type APIRequestContext, type TestInfo, type Page } from "@playwright/test";

/** Thread set-up over the REST API (the same server the browser talks to). */
export async function createThread(
  request: APIRequestContext,
  body: {
    agent_id: string;
    env?: Record<string, string>;
    tags?: string[];
    initial_messages?: {
      role: "user" | "assistant" | "system";
      content: string;
      silent?: boolean;
      metadata?: Record<string, unknown>;
    }[];
  },
): Promise<string> {
  const res = await request.post("/api/threads", { data: body, timeout: 120_000 });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { threadId: string }).threadId;
}

export async function threadStatus(request: APIRequestContext, id: string): Promise<string> {
  const res = await request.get(`/api/threads/${id}`);
  return ((await res.json()) as { thread: { status: string } }).thread.status;
}

export async function messages(
  request: APIRequestContext,
  id: string,
): Promise<{ id: string; role: string; content: string | null }[]> {
  const res = await request.get(`/api/threads/${id}/messages?includeSilent=true`);
  return ((await res.json()) as { messages: { id: string; role: string; content: string | null }[] }).messages;
}

/** A screenshot of the viewport, attached to the test report (and kept in the test's output folder). */
export async function shot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const file = testInfo.outputPath(`${name.replace(/[^a-z0-9]+/gi, "-").toLowerCase()}.png`);
  await page.screenshot({ path: file });
  await testInfo.attach(name, { path: file, contentType: "image/png" });
}
