import { describe, expect, it } from "vitest";
import { EDITOR_SECTION_BEGIN, EDITOR_SECTION_END, editorSection, withEditorSection } from "./results-section";

describe("the bench:editor section of RESULTS.md", () => {
  it("is appended once, then replaced in place, leaving the rest alone", () => {
    const first = withEditorSection("# Benchmark results\n\n## Notes\n\n- a\n", "## Graph editor\n\nfirst");
    expect(first).toBe(`# Benchmark results\n\n## Notes\n\n- a\n\n${EDITOR_SECTION_BEGIN}\n## Graph editor\n\nfirst\n${EDITOR_SECTION_END}\n`);
    const second = withEditorSection(first, "## Graph editor\n\nsecond $& $1");
    expect(second).toBe(first.replace("first", () => "second $& $1"));
    expect(editorSection(second)).toBe(`${EDITOR_SECTION_BEGIN}\n## Graph editor\n\nsecond $& $1\n${EDITOR_SECTION_END}`);
  });

  it("finds nothing in a file without one", () => {
    expect(editorSection("# Benchmark results\n")).toBeNull();
  });
});
