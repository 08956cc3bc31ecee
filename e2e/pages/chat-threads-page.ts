import { expect, type Locator, type Page } from "@playwright/test";

/** The thread list `/threads` and the new-thread form `/threads/new`. */
export class ThreadsPage {
  readonly rows: Locator;
  readonly search: Locator;
  readonly agentFilter: Locator;
  readonly statusFilter: Locator;

  constructor(readonly page: Page) {
    this.rows = page.getByTestId("thread-row");
    this.search = page.getByTestId("thread-search");
    this.agentFilter = page.getByTestId("thread-agent-filter");
    this.statusFilter = page.getByTestId("thread-status-filter");
  }

  async open(query = "") {
    await this.page.goto(`/threads${query}`);
    await expect(this.page.getByRole("heading", { name: "Threads" })).toBeVisible();
    await expect(this.page.getByTestId("live-indicator")).toHaveAttribute("data-state", "pending");
  }

  row(id: string): Locator {
    return this.page.locator(`[data-testid="thread-row"][data-thread="${id}"]`);
  }
}

export class NewThreadPage {
  readonly agent: Locator;
  readonly create: Locator;
  readonly formError: Locator;

  constructor(readonly page: Page) {
    this.agent = page.getByTestId("agent-select");
    this.create = page.getByTestId("create-thread");
    this.formError = page.getByTestId("form-error");
  }

  async open(agent?: string) {
    await this.page.goto(agent ? `/threads/new?agent=${agent}` : "/threads/new");
    await expect(this.page.getByRole("heading", { name: "New thread" })).toBeVisible();
  }

  variable(name: string): Locator {
    return this.page.locator(`[data-testid="variable-field"][data-variable="${name}"]`);
  }
}
