import { describe, expect, it } from "vitest";
import { plainText } from "./format";
import { buildThreadTree, flattenTree } from "./thread-tree";
import type { ListedThread } from "./types";

const t = (id: string, parent: string | null, created: string): ListedThread =>
  ({ id, parent_id: parent, created_at: created }) as ListedThread;

describe("thread tree", () => {
  it("nests children under their parents (by creation), keeps root order, and treats orphans as roots", () => {
    const roots = buildThreadTree([
      t("b", null, "2"),
      t("a", null, "1"),
      t("a2", "a", "5"),
      t("a1", "a", "3"),
      t("a1x", "a1", "4"),
      t("orphan", "gone", "6"),
    ]);
    expect(roots.map((r) => r.thread.id)).toEqual(["b", "a", "orphan"]);
    expect(flattenTree(roots, new Set()).map(({ node, depth }) => `${node.thread.id}:${depth}`)).toEqual([
      "b:0",
      "a:0",
      "a1:1",
      "a1x:2",
      "a2:1",
      "orphan:0",
    ]);
    expect(flattenTree(roots, new Set(["a1"])).map(({ node }) => node.thread.id)).toEqual([
      "b",
      "a",
      "a1",
      "a2",
      "orphan",
    ]);
  });

  it("previews markdown as plain words", () => {
    expect(
      plainText(
        "## Result\n\nThe text has **3 words**. [link](https://x.y)\n\n| a | b |\n|---|---|\n\n```js\ncode()\n```\n> quoted",
      ),
    ).toBe("Result The text has 3 words. link a b quoted");
  });
});
