import { expect, type Locator, type Page } from "@playwright/test";

/** The inspector `/threads/<id>?view=inspector`: the live subagent tree, the selected thread, the timeline. */
export class InspectorPage {
  readonly tree: Locator;
  readonly nodes: Locator;
  readonly panel: Locator;
  readonly live: Locator;

  constructor(readonly page: Page) {
    this.tree = page.getByTestId("inspector-tree");
    this.nodes = page.getByTestId("tree-node");
    this.panel = page.getByTestId("node-panel");
    this.live = page.getByTestId("inspector-live");
  }

  async open(threadId: string, node?: string) {
    await this.page.goto(`/threads/${threadId}?view=inspector${node ? `&node=${node}` : ""}`);
    await expect(this.page.getByRole("heading", { name: "Inspector" })).toBeVisible();
    await expect(this.live).toHaveAttribute("data-state", "live");
  }

  node(threadId: string): Locator {
    return this.page.locator(`[data-testid="tree-node"][data-thread="${threadId}"]`);
  }

  /** The tree row of the child with this instance name (`name:` tag). */
  named(name: string): Locator {
    return this.nodes.filter({ has: this.page.getByTestId("node-name").getByText(name, { exact: false }) });
  }

  agentNode(title: string): Locator {
    return this.nodes.filter({ has: this.page.getByTestId("node-agent").getByText(title, { exact: true }) });
  }

  status(node: Locator): Locator {
    return node.getByTestId("node-status");
  }

  async select(node: Locator) {
    const id = await node.getAttribute("data-thread");
    await node.getByTestId("node-agent").click();
    await expect(this.panel).toHaveAttribute("data-thread", id!);
  }

  tab(name: string): Locator {
    return this.page.getByRole("tab", { name: new RegExp(`^${name}`) });
  }

  /** Messages of the selected thread's conversation written by `author` (a side label, "Parent", …). */
  messagesBy(author: string): Locator {
    return this.panel
      .getByTestId("transcript-message")
      .filter({ has: this.page.getByTestId("message-author").getByText(author, { exact: true }) });
  }

  /** What the selected child sent to its parent, of one kind (`report`, `tool_result`, `initiated`, `notify`). */
  toParent(kind: string): Locator {
    return this.panel.locator(`[data-testid="to-parent-message"][data-kind="${kind}"]`);
  }

  get registryText(): Locator {
    return this.panel.getByTestId("registry-system-message");
  }

  registryEntry(reference: string): Locator {
    return this.panel.locator(`[data-testid="registry-entry"][data-reference="${reference}"]`);
  }

  async terminateChild(reference: string) {
    const entry = this.registryEntry(reference);
    await entry.getByTestId("terminate-child").click();
    await entry.getByTestId("terminate-child-confirm").click();
  }

  async openTimeline() {
    await this.tab("Timeline").click();
    await expect(this.page.getByTestId("timeline")).toBeVisible();
  }
}
