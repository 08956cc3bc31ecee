import { describe, expect, it } from "vitest";
import { mergeSections, readSections } from "../../bench/results-file";

const header = "# Benchmark results\n\nintro";

describe("bench/RESULTS.md sections", () => {
  it("replaces the sections a run wrote and keeps every other marked section in place", () => {
    const before = mergeSections("", header, [
      { name: "bench-in-process", body: "## In process\nold\n" },
      { name: "editor", body: "## Editor\nfrom bench:editor\n" },
      { name: "bench-black-box", body: "## Black box\nold\n" },
    ]);
    const after = mergeSections(before, header, [{ name: "bench-black-box", body: "## Black box\nnew\n" }]);
    expect(readSections(after)).toEqual([
      { name: "bench-in-process", body: "## In process\nold\n" },
      { name: "editor", body: "## Editor\nfrom bench:editor\n" },
      { name: "bench-black-box", body: "## Black box\nnew\n" },
    ]);
    expect(after.startsWith(header)).toBe(true);
  });

  it("adds a section that was not there after the others", () => {
    const before = mergeSections("", header, [{ name: "editor", body: "e\n" }]);
    expect(readSections(mergeSections(before, header, [{ name: "bench-black-box", body: "b\n" }])).map((s) => s.name)).toEqual(["editor", "bench-black-box"]);
  });

  it("keeps the body of a file from before the markers as the legacy section", () => {
    const legacy = "# Benchmark results\n\nGenerated…\n\n## Machine\n\n- CPU\n\n## Results\n\n| a |\n";
    const merged = mergeSections(legacy, header, [{ name: "bench-black-box", body: "b\n" }], "bench-in-process");
    expect(readSections(merged)).toEqual([
      { name: "bench-in-process", body: "## Machine\n\n- CPU\n\n## Results\n\n| a |\n" },
      { name: "bench-black-box", body: "b\n" },
    ]);
  });
});
