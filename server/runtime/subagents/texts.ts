import type { SubagentRecord } from "../ports";

/** The exact child → parent texts of design.md §4. */
export function completionText(reference: string, result: string, attachments: string[]): string {
  return `Subagent (reference: ${reference}) has returned the following result:\n\n${result}${attachmentsText(attachments)}`;
}

export function failureText(reference: string, details: string, attachments: string[]): string {
  return `Subagent (reference: ${reference}) has reported a failure:\n\n${details}${attachmentsText(attachments)}`;
}

export function attachmentsText(paths: string[]): string {
  return paths.length > 0 ? `\n\nThe subagent also returned the following attachment(s):\n\n${paths.join("\n")}` : "";
}

/** A blocking call's tool result: the child's result or failure, then the reference. */
export function blockingResultText(reference: string, body: string, attachments: string[]): string {
  return `${body}${attachmentsText(attachments)}\n\nReference: ${reference}`;
}

/** A blocking child terminated before it reported: the parent's waiting call gets this error (then the reference). */
export const terminatedText = (reference: string) => `Subagent (reference: ${reference}) was terminated before it returned a result.`;

export const initiatedText = (reference: string) => `The subagent was initiated successfully. Reference: ${reference}`;

/**
 * The registry system message (design.md §4): one line per live child, in creation order. Its wording depends only
 * on the children and their statuses, so unchanged registries give byte-identical text (provider prompt caches).
 */
export function registryMessage(entries: SubagentRecord[]): string | null {
  const live = entries.filter((e) => e.resumable && e.status !== "terminated");
  if (live.length === 0) return null;
  const lines = live.map(
    (e) =>
      `- reference: ${e.childId}; agent: ${e.name}; instance: ${e.threadName ?? "(unnamed)"}; status: ${e.status}; description: ${e.description}`,
  );
  return [
    "Subagents you created and can still message (use subagent_message with the reference; use subagent_create only for new work):",
    ...lines,
  ].join("\n");
}
