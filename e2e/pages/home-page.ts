import { expect, type Locator, type Page } from "@playwright/test";

/** The home page: agent cards and the diagnostics panel. */
export class HomePage {
  readonly agentCards: Locator;
  readonly diagnostics: Locator;
  readonly noDiagnostics: Locator;

  constructor(readonly page: Page) {
    this.agentCards = page.getByTestId("agent-card");
    this.diagnostics = page.getByTestId("diagnostic");
    this.noDiagnostics = page.getByTestId("diagnostics-empty");
  }

  async open() {
    await this.page.goto("/");
    await expect(this.page.getByRole("heading", { name: /Agents/ })).toBeVisible();
  }

  agent(name: string): Locator {
    return this.page.locator(`[data-testid="agent-card"][data-agent="${name}"]`);
  }

  diagnosticFor(file: string): Locator {
    return this.diagnostics.filter({ has: this.page.getByTestId("diagnostic-file").filter({ hasText: file }) });
  }
}
