import { describe, expect, it } from "vitest";
import { quoteSqliteJsonDefaults } from "./sqlite-json-defaults";

describe("quoteSqliteJsonDefaults", () => {
  it("quotes bare JSON defaults in column definitions and ADD COLUMN statements", () => {
    const sql = [
      'CREATE TABLE "T" (',
      '    "tags" JSONB NOT NULL DEFAULT [],',
      '    "state" JSONB NOT NULL DEFAULT {"a": [1, "it\'s"]},',
      '    "meta" JSONB DEFAULT {}',
      ");",
      'ALTER TABLE "T" ADD COLUMN "x" JSONB NOT NULL DEFAULT {"k": 1};',
    ].join("\n");
    expect(quoteSqliteJsonDefaults(sql)).toBe(
      [
        'CREATE TABLE "T" (',
        "    \"tags\" JSONB NOT NULL DEFAULT '[]',",
        '    "state" JSONB NOT NULL DEFAULT \'{"a": [1, "it\'\'s"]}\',',
        "    \"meta\" JSONB DEFAULT '{}'",
        ");",
        'ALTER TABLE "T" ADD COLUMN "x" JSONB NOT NULL DEFAULT \'{"k": 1}\';',
      ].join("\n"),
    );
  });

  it("leaves quoted defaults, other types and non-JSON text unchanged", () => {
    const sql = [
      "    \"tags\" JSONB NOT NULL DEFAULT '[]',",
      "    \"status\" TEXT NOT NULL DEFAULT 'idle',",
      '    "odd" JSONB NOT NULL DEFAULT {not json},',
    ].join("\n");
    expect(quoteSqliteJsonDefaults(sql)).toBe(sql);
  });
});
