import { expect, type Locator, type Page } from "@playwright/test";

/** The conversation page `/threads/<id>`. */
export class ChatPage {
  readonly input: Locator;
  readonly send: Locator;
  readonly stop: Locator;
  readonly status: Locator;
  readonly streaming: Locator;
  readonly messages: Locator;
  readonly scroller: Locator;
  readonly threadStatus: Locator;

  constructor(readonly page: Page) {
    this.input = page.getByTestId("composer-input");
    this.send = page.getByTestId("send-button");
    this.stop = page.getByTestId("stop-button");
    this.status = page.getByTestId("status-line");
    this.streaming = page.getByTestId("streaming-reply");
    this.messages = page.getByTestId("message");
    this.scroller = page.getByTestId("message-scroller");
    this.threadStatus = page.locator("header").getByTestId("thread-status");
  }

  async open(id: string) {
    await this.page.goto(`/threads/${id}`);
    await expect(this.input).toBeVisible();
  }

  async say(text: string) {
    await this.input.fill(text);
    await this.input.press("Enter");
  }

  /** Stored messages whose text contains `text`. */
  message(text: string | RegExp): Locator {
    return this.messages.filter({ hasText: text });
  }

  fromAuthor(label: string): Locator {
    return this.page.locator(`[data-testid="message"][data-author="${label}"]`);
  }

  toolCall(name: string): Locator {
    return this.page.getByTestId("tool-call").filter({ has: this.page.locator(`[data-tool="${name}"]`) });
  }
}
