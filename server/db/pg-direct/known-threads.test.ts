import { describe, expect, it } from "vitest";
import { KnownThreads } from "./known-threads";

/** What a process knows of a thread's row when two transactions' commits are handled in another order than they ran. */
describe("KnownThreads", () => {
  const row = (version: number, eventSeq: number) => ({ id: "t", version, eventSeq, state: "{}" });

  it("follows events appended after the row it holds, and rows that are newer", () => {
    const k = new KnownThreads();
    k.setRow("t", row(0, 9));
    k.eventsAppended("t", 10, 11);
    expect(k.row("t")).toMatchObject({ version: 0, eventSeq: 11 });
    k.setRow("t", row(1, 11));
    expect(k.row("t")).toMatchObject({ version: 1, eventSeq: 11 });
  });

  it("drops the row when events it did not see came first, and takes no older row after that", () => {
    const k = new KnownThreads();
    k.setRow("t", row(0, 9));
    // Events 12–13 committed after another transaction took the counter to 11; that one's row is handled last.
    k.eventsAppended("t", 12, 13);
    expect(k.row("t")).toBeUndefined();
    k.setRow("t", row(0, 11));
    expect(k.row("t")).toBeUndefined();
    k.setRow("t", row(0, 13));
    expect(k.row("t")).toMatchObject({ eventSeq: 13 });
  });

  it("takes no row with a lower version than one seen, nor after events appended to a thread it did not know", () => {
    const k = new KnownThreads();
    k.setRow("t", row(2, 5));
    k.setRow("t", row(1, 5));
    expect(k.row("t")).toBeUndefined();
    k.eventsAppended("u", 4, 6);
    k.setRow("u", row(0, 3));
    expect(k.row("u")).toBeUndefined();
    k.forget("t");
    k.setRow("t", row(1, 5));
    expect(k.row("t")).toMatchObject({ version: 1 });
  });
});
