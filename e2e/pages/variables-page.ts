import { expect, type Locator, type Page } from "@playwright/test";

/** The variables forms (instance / my variables) and the per-agent variables panel. */
export class VariablesPage {
  constructor(private readonly page: Page) {}

  form(scope: "instance" | "user" | "thread"): Locator {
    return this.page.getByTestId(`variables-${scope}`);
  }

  async add(scope: "instance" | "user" | "thread", name: string, value: string, type: "text" | "secret"): Promise<void> {
    const form = this.form(scope);
    await form.getByRole("button", { name: "Add variable" }).click();
    const row = form.getByTestId("variable-row").last();
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
