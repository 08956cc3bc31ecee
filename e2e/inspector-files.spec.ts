import { expect, test } from "@playwright/test";
import { expectAccessible } from "./pages/axe";
import { createThread, shot } from "./pages/chat-api";
import { ChatPage } from "./pages/chat-page";

test.use({ viewport: { width: 1440, height: 900 } });
test.describe.configure({ timeout: 180_000 });

// A 1×1 red PNG and a one-page PDF.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==", "base64");
const PDF = Buffer.from("%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n");

test("the Files tab, opened from the chat, previews, edits, uploads, downloads and deletes a thread's files", async ({ page, request }, testInfo) => {
  const id = await createThread(request, { agent_id: "writing_assistant" });
  const put = async (path: string, body: string | Buffer, type: string) =>
    expect((await request.post(`/api/threads/${id}/fs${path}`, { data: body, headers: { "content-type": type } })).status()).toBe(201);
  await put("/docs/readme.md", "# Plan\n\n- **first** step", "text/markdown");
  await put("/data/config.json", '{"depth":2,"tags":["a"]}', "application/json");
  await put("/images/dot.png", PNG, "image/png");
  await put("/report.pdf", PDF, "application/pdf");

  const chat = new ChatPage(page);
  await chat.open(id);
  await page.getByTestId("open-files").click();
  await expect(page).toHaveURL(/tab=files/);
  const panel = page.getByTestId("files-panel");
  await expect(panel.getByTestId("file-row")).toHaveCount(4, { timeout: 30_000 });
  await expect(panel.getByRole("navigation", { name: "Thread files" })).toContainText("docs/");

  // Markdown is rendered, JSON pretty-printed, images and PDFs shown from the file's address.
  await panel.locator('[data-path="/docs/readme.md"]').click();
  await expect(panel.getByTestId("file-markdown").getByRole("heading", { name: "Plan" })).toBeVisible();
  await expect(panel.getByTestId("file-markdown").locator("strong")).toHaveText("first");
  await panel.locator('[data-path="/data/config.json"]').click();
  await expect(panel.getByTestId("file-text")).toContainText('"depth": 2,');
  await panel.locator('[data-path="/images/dot.png"]').click();
  const img = panel.getByRole("img", { name: "Preview of /images/dot.png" });
  await expect(img).toBeVisible();
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(1);
  await panel.locator('[data-path="/report.pdf"]').click();
  await expect(panel.getByTestId("file-pdf")).toHaveAttribute("data", `/api/threads/${id}/fs/report.pdf`);
  await shot(page, testInfo, "files tab pdf");
  await expectAccessible(page, "the Files tab");

  // Edit and save a text file; the server holds the new text.
  await panel.locator('[data-path="/docs/readme.md"]').click();
  await panel.getByRole("button", { name: "Edit" }).click();
  await panel.getByLabel("Contents of /docs/readme.md").fill("# Plan B\n\nShorter.");
  await panel.getByRole("button", { name: "Save" }).click();
  await expect(panel.getByTestId("file-markdown").getByRole("heading", { name: "Plan B" })).toBeVisible();
  expect(await (await request.get(`/api/threads/${id}/fs/docs/readme.md`)).text()).toBe("# Plan B\n\nShorter.");

  // Upload into a folder, see it listed and previewed; download it.
  await panel.getByRole("button", { name: "docs/" }).click();
  await panel.getByTestId("files-upload-input").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("uploaded from the browser") });
  await expect(panel.getByRole("status")).toHaveText("Uploaded /docs/notes.txt");
  await expect(panel.getByTestId("file-row")).toHaveCount(5);
  await expect(panel.getByTestId("file-text")).toHaveText("uploaded from the browser");
  const download = page.waitForEvent("download");
  await panel.getByRole("link", { name: "Download" }).click();
  expect((await download).suggestedFilename()).toBe("notes.txt");

  // Delete asks once, then the file is gone here and on the server; Refresh shows files written elsewhere.
  await panel.getByTestId("file-delete").click();
  await panel.getByTestId("file-delete-confirm").click();
  await expect(panel.getByRole("status")).toHaveText("Deleted /docs/notes.txt");
  await expect(panel.getByTestId("file-row")).toHaveCount(4);
  expect((await request.get(`/api/threads/${id}/fs/docs/notes.txt`)).status()).toBe(404);
  await put("/later.txt", "written by a tool", "text/plain");
  await panel.getByRole("button", { name: "Refresh" }).click();
  await expect(panel.locator('[data-path="/later.txt"]')).toBeVisible();
  await expectAccessible(page, "the Files tab after changes");
});
