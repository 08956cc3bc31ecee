import { expect, test } from "@playwright/test";
import { EditorPage } from "./pages/editor-page";
import { HomePage } from "./pages/home-page";

// Through the real server: a nonce-based CSP that the app runs under without violations, no framing, and bad
// requests answered with a 4xx.
test("pages run under a nonce CSP, refuse framing, and bad requests get a 4xx", async ({ page, request, baseURL }) => {
  test.setTimeout(60_000);
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to (execute|load|apply)/i.test(m.text())) violations.push(m.text());
  });
  const response = await page.goto("/");
  const headers = response!.headers();
  const policy = headers["content-security-policy"]!;
  expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  expect(policy).toContain("frame-ancestors 'none'");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("same-origin");
  expect(headers["x-frame-options"]).toBe("DENY");
  // The inline theme script carries the nonce, and the app hydrates and works under the policy.
  const nonce = /'nonce-([^']+)'/.exec(policy)![1]!;
  expect(await page.locator("head script").first().evaluate((s) => (s as HTMLScriptElement).nonce)).toBe(nonce);
  const home = new HomePage(page);
  await home.open();
  await page.getByRole("button", { name: /Switch to dark theme/ }).click();
  await expect(page.locator("html")).toHaveClass(/dark/);
  // The graph editor (its layout runs in a worker) too.
  await new EditorPage(page).open();
  expect(violations).toEqual([]);

  // Another site cannot frame the app.
  const framed: string[] = [];
  page.on("console", (m) => framed.push(m.text()));
  await page.setContent(`<iframe id="app" src="${baseURL}/"></iframe>`);
  await expect.poll(() => framed.some((t) => /frame-ancestors|Refused to (display|frame)/i.test(t)), { timeout: 10_000 }).toBe(true);

  // Bad requests: an unsupported method, malformed percent-encoding, JSON nested too deep.
  const trace = await request.fetch("/api/health", { method: "TRACE" });
  expect([trace.status(), (await trace.json()).error.code]).toEqual([405, "METHOD_NOT_ALLOWED"]);
  const malformed = await request.get("/api/threads/%E0%A4%A");
  expect([malformed.status(), (await malformed.json()).error.code]).toEqual([400, "BAD_REQUEST"]);
  const deep = await request.post("/api/threads", { headers: { "content-type": "application/json" }, data: "[".repeat(5000) + "]".repeat(5000) });
  expect([deep.status(), (await deep.json()).error.code]).toEqual([413, "PAYLOAD_TOO_LARGE"]);
});
