import { describe, expect, it } from "vitest";
import { changedFields, pendingChangeCount, pendingChanges, saveStatus, type PendingDoc } from "./pending-changes";

const prompt = { name: "drafter", model: "fast", prompt: "Write.", tools: ["word_count"], includeChat: true };
const doc = (value: Record<string, unknown>, extra: Partial<PendingDoc> = {}): PendingDoc => ({ file: "prompts/drafter.ts", base: prompt, value: value as PendingDoc["value"], ...extra });

describe("pending changes", () => {
  it("counts two edits of two fields of one file as two changes (the editor said 1)", () => {
    const edited = doc({ ...prompt, model: "careful", includeChat: false });
    expect(pendingChanges(edited)).toEqual(["includeChat", "model"]);
    expect(pendingChangeCount([edited])).toBe(2);
  });

  it("counts a field edited twice once, and a field put back as no change", () => {
    expect(pendingChangeCount([doc({ ...prompt, prompt: "Write well, and short." })])).toBe(1);
    expect(pendingChangeCount([doc({ ...prompt })])).toBe(0);
  });

  it("counts nested fields one by one and a list as one field", () => {
    const base = { name: "a", sideA: { label: "Writer", prompt: "p", maxSteps: 3 }, tools: ["x"] };
    const value = { name: "a", sideA: { label: "Author", prompt: "p", maxSteps: 4 }, tools: ["x", "y", "z"] };
    expect(changedFields(base, value)).toEqual(["sideA.label", "sideA.maxSteps", "tools"]);
  });

  it("counts an added and a removed key", () => {
    expect(changedFields({ a: 1, b: 2 }, { a: 1, c: 3 })).toEqual(["b", "c"]);
  });

  it("counts a new file, a deleted file and a tool rename as one change each, across documents", () => {
    const docs: PendingDoc[] = [
      { file: null, base: null, value: { name: "fresh" } },
      { file: "models/old.ts", base: { name: "old" }, value: { name: "old" }, deleted: true },
      { file: "tools/count.ts", base: null, value: null, renameTo: "count_words" },
      doc({ ...prompt, model: "careful" }),
    ];
    expect(docs.map((d) => pendingChanges(d))).toEqual([["new file"], ["deleted"], ["renamed"], ["model"]]);
    expect(pendingChangeCount(docs)).toBe(4);
    // A new file deleted before it was saved leaves nothing to do.
    expect(pendingChanges({ file: null, base: null, value: { name: "x" }, deleted: true })).toEqual([]);
  });
});

describe("save status", () => {
  it("never says all changes are saved while a field holds input that is not applied", () => {
    const s = saveStatus({ readonly: false, changes: 0, invalidInputs: 1, invalidFields: 0 });
    expect(s.text).toBe("1 field with invalid input (not applied)");
    expect(s.tone).toBe("invalid");
    expect(s.canSave).toBe(false);
  });

  it("says how many changes are pending and which problems block the save", () => {
    expect(saveStatus({ readonly: false, changes: 2, invalidInputs: 0, invalidFields: 0 })).toEqual({ text: "2 unsaved changes", tone: "pending", canSave: true });
    expect(saveStatus({ readonly: false, changes: 1, invalidInputs: 2, invalidFields: 3 }).text).toBe(
      "1 unsaved change · 2 fields with invalid input (not applied) · 3 invalid fields to fix before saving",
    );
  });

  it("says all changes are saved only when nothing is pending, and read-only when the caller may not write", () => {
    expect(saveStatus({ readonly: false, changes: 0, invalidInputs: 0, invalidFields: 0 })).toEqual({ text: "All changes saved", tone: "saved", canSave: false });
    expect(saveStatus({ readonly: true, changes: 0, invalidInputs: 1, invalidFields: 0 })).toEqual({ text: "Read-only", tone: "readonly", canSave: false });
  });
});
