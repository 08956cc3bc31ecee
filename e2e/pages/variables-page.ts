import { expect, type Locator, type Page } from "@playwright/test";

/** The variables forms (instance / my variables) and the per-agent variables panel. */
export class VariablesPage {
  constructor(private readonly page: Page) {}

  form(scope: "instance" | "user" | "thread"): Locator {
    return this.page.getByTestId(`variables-${scope}`);
  }

  async add(scope: "instance" | "user" | "thread", name: string, value: string, type: "text" | "secret"): Promise<void> {
    const form = this.form(scope);
    const rows = form.getByTestId("variable-row");
    const before = await rows.count();
    // A click that lands before the form is hydrated adds nothing: click again until the new row is there.
    await expect(async () => {
      if ((await rows.count()) === before) await form.getByRole("button", { name: "Add variable" }).click();
      await expect(rows).toHaveCount(before + 1, { timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    const row = rows.last();
    await row.getByLabel(/^Name/).fill(name);
    await row.getByLabel(/^Value/).fill(value);
    await row.getByLabel(/^Type/).selectOption(type);
  }

  async save(scope: "instance" | "user" | "thread"): Promise<void> {
    const form = this.form(scope);
    await form.getByRole("button", { name: "Save variables" }).click();
    await expect(form.getByRole("status")).toHaveText("Saved.");
  }

  async pickAgent(name: string): Promise<void> {
    await this.page.getByTestId("agent-variables").getByLabel("Agent").selectOption(name);
  }

  source(variable: string): Locator {
    return this.page.locator(`[data-testid="agent-variable"][data-variable="${variable}"] [data-testid="variable-source"]`);
  }

  missingBadge(): Locator {
    return this.page.getByTestId("agent-variables").getByText(/^Missing:/);
  }
}
