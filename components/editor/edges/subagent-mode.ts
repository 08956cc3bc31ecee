import type { SubagentMode } from "@/shared/graph-projection";

/** The badges that tell a subagent edge's mode at a glance. */
export function subagentBadges(mode: SubagentMode): Array<{ text: string; title: string }> {
  const out = [
    mode.blocking
      ? { text: "blocking", title: "The parent waits for the child's result" }
      : { text: "background", title: "The parent goes on; the result arrives later as a queued message" },
  ];
  if (mode.resumable) {
    const r = mode.resumable;
    out.push({
      text: `resumable${r.maxInstances !== undefined ? ` ×${r.maxInstances}` : ""} → ${r.receives_messages}`,
      title: `Stays addressable after it reports${r.maxInstances !== undefined ? `, at most ${r.maxInstances} live instances` : ""}; parent messages go to ${r.receives_messages}`,
    });
    out.push(
      r.parentCommunication === "explicit"
        ? { text: "explicit", title: "Reports to the parent only through notifyParent" }
        : { text: "implicit", title: "Completion and failure are queued to the parent automatically" },
    );
  } else out.push({ text: "one-shot", title: "Ends after it reports" });
  if (mode.immediate) out.push({ text: "immediate", title: "Spawned as soon as the prompt becomes active" });
  if (mode.optional) out.push({ text: `optional: ${mode.optional}`, title: `Offered only when ${mode.optional} is true, 1 or yes` });
  return out;
}
