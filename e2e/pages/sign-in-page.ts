import { expect, type Page } from "@playwright/test";

/** The sign-in and first-run setup pages, and the header's account area. */
export class SignInPage {
  constructor(
    private readonly page: Page,
    private readonly base: string,
  ) {}

  async signIn(username: string, password: string): Promise<void> {
    await this.page.getByLabel("Username").fill(username);
    await this.page.getByLabel("Password").fill(password);
    await this.page.getByRole("button", { name: "Sign in" }).click();
  }

  async goAndSignIn(username: string, password: string, next = "/"): Promise<void> {
    await this.page.goto(`${this.base}/login?next=${encodeURIComponent(next)}`);
    await this.signIn(username, password);
    await expect(this.signedInAs()).toContainText(username);
  }

  async setup(username: string, password: string): Promise<void> {
    await this.page.getByLabel("Username").fill(username);
    await this.page.getByLabel("Password (10 characters or more)").fill(password);
    await this.page.getByLabel("Repeat the password").fill(password);
    await this.page.getByRole("button", { name: "Create account and sign in" }).click();
  }

  signedInAs() {
    return this.page.getByTestId("signed-in-as");
  }

  async signOut(): Promise<void> {
    await this.page.getByRole("button", { name: "Sign out" }).click();
    await expect(this.page).toHaveURL(/\/login/);
  }
}
