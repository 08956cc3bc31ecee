import { expect, test } from "@playwright/test";
import { setScript } from "../scripts/fake-llm/fake-llm-client";
import { E2E_FAKE_LLM_URL } from "./env";
import { createThread, shot } from "./pages/chat-api";
import { ChatPage } from "./pages/chat-page";

// A 2×2 PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==",
  "base64",
);

test("files attach to a message: uploaded into /attachments/, shown as a thumbnail and a file chip", async ({
  page,
  request,
}, testInfo) => {
  await setScript(E2E_FAKE_LLM_URL, [{ when: { last_role: "user" }, respond: { content: "Got your files." } }]);
  const id = await createThread(request, { agent_id: "writing_assistant" });
  const chat = new ChatPage(page);
  await chat.open(id);
  await page.getByTestId("file-input").setInputFiles([
    { name: "chart.png", mimeType: "image/png", buffer: PNG },
    { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("meeting notes") },
  ]);
  const uploads = page.getByTestId("upload");
  await expect(uploads).toHaveCount(2);
  await expect(uploads.and(page.locator('[data-state="done"]'))).toHaveCount(2);
  await chat.input.fill("Here are the files");
  await chat.input.press("Enter");

  await expect(chat.message("Got your files.")).toBeVisible();
  const sent = chat.fromAuthor("You");
  await expect(sent.locator('[data-testid="attachment"][data-kind="image"] img')).toHaveAttribute("alt", "chart.png");
  await expect(sent.locator('[data-testid="attachment"][data-kind="file"]')).toContainText("notes.txt");
  // The thumbnail really loads from the thread's files.
  await expect.poll(() => sent.locator("img").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(2);
  const res = await request.get(`/api/threads/${id}/fs/attachments`);
  const paths = ((await res.json()) as { entries: { path: string }[] }).entries.map((e) => e.path);
  expect(paths.some((p) => /^\/attachments\/chart-[a-z0-9]+\.png$/.test(p))).toBe(true);
  expect(paths.some((p) => /^\/attachments\/notes-[a-z0-9]+\.txt$/.test(p))).toBe(true);
  await shot(page, testInfo, "attachments");
});
