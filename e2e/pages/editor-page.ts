import { expect, type Locator, type Page } from "@playwright/test";

type Kind = "agent" | "prompt" | "model" | "tool" | "hook" | "file";

/** The graph editor (/editor): canvas nodes and edges, the side panel, the toolbar and its dialogs. */
export class EditorPage {
  readonly canvas: Locator;
  readonly panel: Locator;
  readonly status: Locator;

  constructor(readonly page: Page) {
    this.canvas = page.getByTestId("editor-canvas");
    this.panel = page.getByTestId("side-panel");
    this.status = page.getByTestId("editor-status");
  }

  async open(root?: string) {
    await this.page.goto(root ? `/editor?root=${encodeURIComponent(root)}` : "/editor");
    await this.laidOut();
  }

  /** Waits for the first layout and the fit to view that follows it (slow on a loaded machine). */
  async laidOut() {
    await expect(this.canvas).toHaveAttribute("data-layout-count", /^[1-9]/, { timeout: 60_000 });
    await expect(this.canvas).toHaveAttribute("data-fitted", /^[1-9]/, { timeout: 20_000 });
  }

  node(kind: Kind, name: string): Locator {
    return this.page.locator(`[data-testid="editor-node"][data-kind="${kind}"][data-name="${name}"]`);
  }

  nodes(kind?: Kind): Locator {
    return this.page.locator(kind ? `[data-testid="editor-node"][data-kind="${kind}"]` : `[data-testid="editor-node"]`);
  }

  edgeLabel(kind: string, source: string, target: string): Locator {
    return this.page.locator(`[data-testid="edge-label"][data-edge-kind="${kind}"][data-source="${source}"][data-target="${target}"]`);
  }

  /** The React Flow wrapper of a node (handles live there). */
  flowNode(kind: Kind, name: string): Locator {
    return this.page.locator(`.react-flow__node[data-id="${kind}:${name}"]`);
  }

  async select(kind: Kind, name: string) {
    await this.node(kind, name).locator("p.font-mono").first().click();
    await expect(this.panel.getByTestId("definition-panel")).toHaveAttribute("data-name", name);
  }

  /** The input (or select, textarea) of the field at a dotted path in the side panel. */
  field(path: string): Locator {
    return this.panel.locator(`[data-field-path="${path}"]`).first().locator("input, select, textarea, [contenteditable=true]").first();
  }

  fieldFrame(path: string): Locator {
    return this.panel.locator(`[data-field-path="${path}"]`).first();
  }

  /** Drags from a node's source handle to another node's target handle. */
  async connect(from: Locator, to: Locator, handleId?: string) {
    const source = from.locator(handleId ? `.react-flow__handle.source[data-handleid="${handleId}"]` : ".react-flow__handle.source").first();
    const target = to.locator(".react-flow__handle.target").first();
    await source.scrollIntoViewIfNeeded();
    const a = (await source.boundingBox())!;
    const b = (await target.boundingBox())!;
    await this.page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await this.page.mouse.down();
    await this.page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 8 });
    await this.page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 8 });
    await this.page.mouse.up();
  }

  async newDefinition(kind: "Agent" | "Prompt" | "Model") {
    await this.page.getByRole("button", { name: "+ New" }).click();
    await this.page.getByRole("menuitem", { name: kind }).click();
    return this.page.getByTestId("new-definition-dialog");
  }

  /** Save: the review dialog shows each file before and after, and its button writes them. */
  async save() {
    await this.page.getByRole("button", { name: "Save", exact: true }).click();
    const review = this.page.getByTestId("review-dialog");
    await review.getByRole("button", { name: /^Save \d+ files?$/ }).click();
    await expect(this.status).toHaveText("All changes saved", { timeout: 15_000 });
  }

  /** How many layouts the canvas has run so far. */
  async layoutCount(): Promise<number> {
    return Number(await this.canvas.getAttribute("data-layout-count"));
  }

  /** Centers a node with the toolbar's search, as a user would. */
  async find(kind: Kind, name: string) {
    await this.page.getByLabel("Find a node").fill(`${name} (${kind})`);
    await expect(this.node(kind, name)).toBeInViewport();
  }

  /** Waits for the layout after `before` (a layout count) to land, then centers the node. */
  async findAfterLayout(kind: Kind, name: string, before: number) {
    await expect.poll(() => this.layoutCount(), { timeout: 15_000 }).toBeGreaterThan(before);
    await this.find(kind, name);
  }

  /** The completions a text input offers: the options of the datalist it is bound to. */
  async suggestions(input: Locator): Promise<string[]> {
    const list = await input.getAttribute("list");
    if (!list) return [];
    return this.page.locator(`datalist[id="${list}"] option`).evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
  }

  async fitView() {
    await this.page.getByRole("button", { name: "Fit View" }).click();
  }
}
