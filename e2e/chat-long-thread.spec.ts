import { expect, test, type Locator } from "@playwright/test";
import { createThread, shot } from "./pages/chat-api";
import { ChatPage } from "./pages/chat-page";

const COUNT = 5_000;

/** Scroll the conversation by `steps` × `px` (negative: up), one step per frame; returns the frame gaps. */
function sampleScroll(scroller: Locator, steps: number, px: number) {
  return scroller.evaluate(
    async (el, [n, delta]) => {
      const gaps: number[] = [];
      let last = performance.now();
      for (let i = 0; i < n; i++) {
        el.scrollTop += delta;
        await new Promise((r) => requestAnimationFrame(() => r(null)));
        const now = performance.now();
        gaps.push(now - last);
        last = now;
      }
      gaps.sort((a, b) => a - b);
      const at = (q: number) => gaps[Math.min(gaps.length - 1, Math.floor(gaps.length * q))] ?? 0;
      return { frames: gaps.length, p50: at(0.5), p95: at(0.95), max: gaps.at(-1) ?? 0 };
    },
    [steps, px] as const,
  );
}

test("a 5,000-message thread opens at its latest message and scrolls smoothly to the first one", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(180_000);
  const initial = Array.from({ length: COUNT }, (_, i) => ({
    role: (i % 2 === 0 ? "user" : "assistant") as "user" | "assistant",
    content:
      i % 10 === 1
        ? `Message ${i + 1}\n\n- a list item\n- and **bold** text\n\n\`\`\`ts\nconst n = ${i};\n\`\`\``
        : `Message ${i + 1}: ${"lorem ipsum ".repeat(1 + (i % 7))}`,
  }));
  let t = Date.now();
  const id = await createThread(request, { agent_id: "writing_assistant", tags: ["long"], initial_messages: initial });
  const seedMs = Date.now() - t;

  const chat = new ChatPage(page);
  t = Date.now();
  await page.goto(`/threads/${id}`);
  await expect(chat.message(`Message ${COUNT}:`)).toBeVisible({ timeout: 30_000 });
  const firstOpenMs = Date.now() - t;
  t = Date.now();
  await page.reload();
  await expect(chat.message(`Message ${COUNT}:`)).toBeVisible();
  const reopenMs = Date.now() - t;
  // Virtualized: only the rows near the viewport are in the DOM.
  expect(await page.locator("[data-row]").count()).toBeLessThan(80);
  await shot(page, testInfo, "long thread opened at the bottom");

  // Reading speed: a wheel flick per frame, upwards through the latest messages (older ones page in meanwhile).
  const reading = await sampleScroll(chat.scroller, 120, -300);
  // Home goes all the way to the first message, paging in everything older on the way.
  t = Date.now();
  await chat.scroller.focus();
  await page.keyboard.press("Home");
  await expect(page.getByTestId("history-edge")).toHaveText("Beginning of the conversation", { timeout: 30_000 });
  await expect(chat.message("Message 1:")).toBeVisible();
  const homeMs = Date.now() - t;
  expect(await page.locator("[data-row]").count()).toBeLessThan(80);
  // And a fast fling back down through the middle of the thread.
  const fling = await sampleScroll(chat.scroller, 120, 2_000);
  await shot(page, testInfo, "long thread at the first message");

  await page.keyboard.press("End");
  await expect(chat.message(`Message ${COUNT}:`)).toBeVisible();
  await expect(page.getByTestId("jump-to-latest")).toHaveCount(0);

  const f = (s: { frames: number; p50: number; p95: number; max: number }) =>
    `${s.frames} frames, p50 ${s.p50.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms, max ${s.max.toFixed(1)} ms`;
  const figures = [
    `seed ${COUNT} messages over REST: ${seedMs} ms`,
    `open to the last message visible: first ${firstOpenMs} ms, reload ${reopenMs} ms`,
    `reading scroll (300 px per frame, up): ${f(reading)}`,
    `Home to the first message (paging in ${COUNT} messages): ${homeMs} ms`,
    `fling (2000 px per frame, down): ${f(fling)}`,
  ].join("\n");
  console.log(`[long thread]\n${figures}`);
  await testInfo.attach("long thread figures", { body: figures, contentType: "text/plain" });
});
