import { expect, type Locator, type Page } from "@playwright/test";

/** The Evals page, an experiment's page and the compare view. */
export class EvalsPage {
  readonly experimentRows: Locator;

  constructor(readonly page: Page) {
    this.experimentRows = page.getByTestId("experiment-row");
  }

  async open() {
    await this.page.goto("/evals");
    await expect(this.page.getByRole("heading", { name: "Evals", level: 1 })).toBeVisible({ timeout: 30_000 });
  }

  evalRow(name: string): Locator {
    return this.page.getByTestId("eval-row").filter({ hasText: name });
  }

  async run(name: string) {
    await this.page.getByRole("button", { name: `Run ${name}` }).click();
  }

  /** Waits until the newest experiment has finished with `status` and the table shows `count` experiments. */
  async expectNewest(status: "passed" | "failed", count: number) {
    await expect(this.experimentRows).toHaveCount(count, { timeout: 30_000 });
    await expect(this.experimentRows.first().getByText(status, { exact: true })).toBeVisible({ timeout: 45_000 });
  }

  async compareNewestTwo() {
    await this.experimentRows.nth(1).getByRole("checkbox").check();
    await this.experimentRows.nth(0).getByRole("checkbox").check();
    await this.page.getByRole("button", { name: /Compare selected \(2\/2\)/ }).click();
    await expect(this.page.getByRole("heading", { name: "Compare experiments" })).toBeVisible({ timeout: 30_000 });
  }

  compareCase(caseId: string): Locator {
    return this.page.getByTestId("compare-case-row").filter({ hasText: caseId });
  }
}
