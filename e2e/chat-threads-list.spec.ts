import Database from "better-sqlite3";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { setScript } from "../scripts/fake-llm/fake-llm-client";
import { E2E_DATA_DIR, E2E_FAKE_LLM_URL } from "./env";
import { createThread, shot } from "./pages/chat-api";
import { ThreadsPage } from "./pages/chat-threads-page";

/** Child threads come from subagent calls; this listing test gives a seeded thread a parent directly in the database. */
function makeChild(childId: string, parentId: string) {
  const db = new Database(path.join(E2E_DATA_DIR, "app.db"));
  try {
    db.pragma("busy_timeout = 5000");
    db.prepare('UPDATE "Thread" SET "parentId" = ? WHERE "id" = ?').run(parentId, childId);
  } finally {
    db.close();
  }
}

test("the thread list nests children, previews the last message, filters and searches, and updates live", async ({
  page,
  request,
}, testInfo) => {
  await setScript(E2E_FAKE_LLM_URL, [
    { when: { last_contains: "beta question" }, delay_ms: 1500, respond: { content: "Beta answer arrived live." } },
    { respond: { content: "ok" } },
  ]);
  const tag = `list-${Date.now().toString(36)}`;
  const alpha = await createThread(request, {
    agent_id: "writing_assistant",
    tags: [`${tag}-alpha`],
    initial_messages: [
      { role: "user", content: "hi" },
      { role: "assistant", content: "Alpha preview text" },
    ],
  });
  const beta = await createThread(request, {
    agent_id: "support_desk",
    tags: [`${tag}-beta`],
    env: { SUPPORT_API_TOKEN: "x", SUPPORT_REGION: "eu" },
  });
  const child = await createThread(request, { agent_id: "draft_and_review", tags: [`${tag}-child`] });
  makeChild(child, alpha);

  const list = new ThreadsPage(page);
  await list.open();
  await expect(list.row(alpha)).toBeVisible();
  await expect(list.row(alpha).getByTestId("thread-preview")).toContainText("Alpha preview text");
  await expect(list.row(alpha).getByTestId("thread-agent")).toHaveText("Writing assistant");
  await expect(list.row(alpha).getByTestId("thread-tag")).toHaveText(`#${tag}-alpha`);
  await expect(list.row(beta).getByTestId("thread-preview")).toHaveText("No messages yet");
  // The child is nested right under its parent.
  await expect(list.row(child)).toHaveAttribute("data-depth", "1");
  await expect(list.row(child)).toHaveAttribute("data-parent", alpha);
  const order = await list.rows.evaluateAll((els) => els.map((e) => e.getAttribute("data-thread")));
  expect(order.indexOf(child)).toBe(order.indexOf(alpha) + 1);
  await list
    .row(alpha)
    .getByRole("button", { name: /Hide 1 child thread/ })
    .click();
  await expect(list.row(child)).toHaveCount(0);
  await list
    .row(alpha)
    .getByRole("button", { name: /Show 1 child thread/ })
    .click();
  await expect(list.row(child)).toBeVisible();

  // Live: a reply starts and finishes in another tab (here: the API) and the row follows without a reload.
  const post = await request.post(`/api/threads/${beta}/messages`, { data: { content: "beta question" } });
  expect(post.status()).toBe(202);
  await expect(list.row(beta).getByTestId("thread-status")).toHaveText("Running");
  await shot(page, testInfo, "thread list with a running thread");
  await expect(list.row(beta).getByTestId("thread-status")).toHaveText("Waiting", { timeout: 15_000 });
  await expect(list.row(beta).getByTestId("thread-preview")).toContainText("Beta answer arrived live.");

  // Search by tag, then by id.
  await list.search.fill(`${tag}-beta`);
  await expect(list.rows).toHaveCount(1);
  await expect(list.row(beta)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`q=${tag}-beta`));
  // What the row shows of the id (its last 8 characters; see shortId).
  await list.search.fill(alpha.slice(-8));
  await expect(list.row(alpha)).toBeVisible();
  await expect(list.row(beta)).toHaveCount(0);

  // Filter by agent: the matching child keeps its parent as context.
  await list.search.fill("");
  await list.agentFilter.selectOption("draft_and_review");
  await expect(list.row(child)).toHaveAttribute("data-context", "false");
  await expect(list.row(alpha)).toHaveAttribute("data-context", "true");
  await expect(list.row(beta)).toHaveCount(0);

  // Filter by status.
  await list.agentFilter.selectOption("");
  const term = await request.post(`/api/threads/${beta}/terminate`);
  expect(term.ok()).toBe(true);
  await list.statusFilter.selectOption("terminated");
  await expect(list.row(beta)).toBeVisible();
  await expect(list.row(beta).getByTestId("thread-status")).toHaveText("Terminated");
  await expect(list.row(alpha)).toHaveCount(0);
  await shot(page, testInfo, "thread list filtered by status");

  // The filters live in the address: a reload keeps them.
  await page.reload();
  await expect(list.statusFilter).toHaveValue("terminated");
  await expect(list.row(beta)).toBeVisible();
  await list.row(beta).getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/threads/${beta}$`));
  await expect(page.getByTestId("composer-hint")).toContainText("terminated");
  await expect(page.getByTestId("composer-input")).toBeDisabled();
});
