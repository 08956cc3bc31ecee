import { expect, test } from "@playwright/test";
import { getRequests } from "../scripts/fake-llm/fake-llm-client";
import { E2E_FAKE_LLM_URL } from "./env";
import { createThread, shot } from "./pages/chat-api";
import { childOf, post, registry, scriptLeadScenario } from "./pages/inspector-scenario";
import { InspectorPage } from "./pages/inspector-page";

test("the registry view shows the system message the model sees, messages a resumable child, and terminates it", async ({
  page,
  request,
}, testInfo) => {
  await scriptLeadScenario({ reviewerDelayMs: 100, checkerDelayMs: 100 });
  const lead = await createThread(request, { agent_id: "insp_lead" });
  await post(request, lead, "Start the work");
  const writer = await childOf(request, lead, "draft_and_review");
  await expect.poll(async () => (await registry(request, lead)).find((e) => e.name === "draft_and_review")?.status, { timeout: 15_000 }).toBe("idle");

  const inspector = new InspectorPage(page);
  await inspector.open(lead);
  await inspector.tab("Registry").click();
  const text = inspector.registryText;
  await expect(text).toContainText(
    `- reference: ${writer.reference}; agent: draft_and_review; instance: Office note; status: idle; description: `,
  );
  // Byte for byte what the lead's model received right after its prompt once the writer had reported.
  await expect
    .poll(async () =>
      (await getRequests(E2E_FAKE_LLM_URL))
        .filter((r) => String(r.messages[0]?.content ?? "").includes("You are the inspection lead"))
        .map((r) => r.messages[1])
        .filter((m) => m?.role === "system")
        .map((m) => String(m!.content)),
    )
    .toContain(await text.textContent());
  await shot(page, testInfo, "registry view");

  // subagent_message from the UI, as the lead would send it: the writer runs again and the text lands in its chat.
  const entry = inspector.registryEntry(writer.reference);
  await entry.getByTestId("child-message-input").fill("Please add the moving date.");
  await entry.getByRole("button", { name: "Send" }).click();
  await expect(entry.getByText("Queued on the child.")).toBeVisible();
  await inspector.select(inspector.named("Office note"));
  await inspector.tab("Conversation").click();
  await expect(inspector.messagesBy("Parent").last()).toContainText("Please add the moving date.");
  await expect(inspector.messagesBy("Parent").last().getByTestId("message-direction")).toHaveText("↓ from parent");
  await expect(inspector.status(inspector.named("Office note"))).toHaveText("idle", { timeout: 15_000 });
  // The second report reached the lead as well.
  await expect(inspector.toParent("report")).toHaveCount(2, { timeout: 15_000 });

  // Terminate the writer from the lead's registry view.
  await inspector.select(inspector.node(lead));
  await inspector.tab("Registry").click();
  await inspector.terminateChild(writer.reference);
  await expect(inspector.registryEntry(writer.reference).getByTestId("registry-status")).toHaveText("terminated");
  await expect(inspector.status(inspector.named("Office note"))).toHaveText("terminated");
  await expect.poll(async () => (await registry(request, lead)).find((e) => e.reference === writer.reference)?.status).toBe("terminated");
  // A terminated child leaves the message the model sees.
  await expect(page.getByTestId("registry-system-message-empty")).toBeVisible();
});
