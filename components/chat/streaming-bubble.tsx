import type { Author } from "./build-rows";
import { Avatar } from "./message-bubble";
import { Markdown } from "./markdown";
import type { PendingMessage, StreamingReply } from "./types";
import { AttachmentList } from "./attachment-list";

/** A blinking caret after the last block of the streamed text (inline, where the next words will appear). */
const CARET = [
  "[&>div>:last-child]:after:ml-0.5 [&>div>:last-child]:after:inline-block [&>div>:last-child]:after:h-4",
  "[&>div>:last-child]:after:w-1.5 [&>div>:last-child]:after:translate-y-0.5 [&>div>:last-child]:after:animate-pulse",
  "[&>div>:last-child]:after:rounded-sm [&>div>:last-child]:after:bg-slate-400 [&>div>:last-child]:after:content-['']",
].join(" ");

/** The reply being streamed, token by token, until its stored message replaces it. */
export function StreamingBubble({ streaming, author }: { streaming: StreamingReply; author: Author }) {
  return (
    <div data-testid="streaming-reply" data-step={streaming.stepId} className="flex gap-3">
      <Avatar author={author} />
      <div className="flex min-w-0 flex-1 flex-col gap-1.5">
        <span className="text-sm font-semibold">{author.label}</span>
        {streaming.reasoning && !streaming.content ? (
          <p className="whitespace-pre-wrap text-xs italic text-slate-500 dark:text-slate-400">{streaming.reasoning.slice(-400)}</p>
        ) : null}
        {streaming.content ? (
          <div data-testid="streaming-text" className={`text-[0.95rem] ${CARET}`}>
            <Markdown text={streaming.content} />
          </div>
        ) : (
          <span className="flex items-center gap-1 py-1" aria-label="Thinking">
            {[0, 150, 300].map((d) => (
              <span
                key={d}
                aria-hidden
                className="h-1.5 w-1.5 animate-bounce rounded-full bg-slate-400"
                style={{ animationDelay: `${d}ms` }}
              />
            ))}
          </span>
        )}
      </div>
    </div>
  );
}

/** A message the user sent, shown at once; says when it is queued or failed. */
export function PendingBubble({
  pending,
  author,
  threadId,
  threadRunning,
  onRetry,
  onRemove,
}: {
  pending: PendingMessage;
  author: Author;
  threadId: string;
  threadRunning: boolean;
  onRetry(): void;
  onRemove(): void;
}) {
  return (
    <div data-testid="pending-message" data-state={pending.state} className="flex flex-col items-end gap-1">
      <span className="text-xs font-medium text-slate-700 dark:text-slate-200">{author.label}</span>
      <AttachmentList threadId={threadId} attachments={pending.attachments} align="end" />
      {pending.content ? (
        <div
          className={`max-w-[min(85%,40rem)] whitespace-pre-wrap break-words rounded-2xl rounded-tr-sm px-4 py-2 text-[0.95rem] text-white ${pending.state === "failed" ? "bg-red-600" : "bg-indigo-600/80"}`}
        >
          {pending.content}
        </div>
      ) : null}
      <span
        className="text-xs text-slate-500 dark:text-slate-400"
        role={pending.state === "failed" ? "alert" : undefined}
      >
        {pending.state === "sending"
          ? "Sending…"
          : pending.state === "queued"
            ? threadRunning
              ? "Queued: delivered when the current step ends"
              : "Delivering…"
            : `Not sent: ${pending.error ?? "error"}`}
        {pending.state === "failed" ? (
          <>
            {" "}
            <button
              type="button"
              onClick={onRetry}
              className="font-medium text-indigo-700 underline dark:text-indigo-300"
            >
              Retry
            </button>{" "}
            <button
              type="button"
              onClick={onRemove}
              className="font-medium text-slate-600 underline dark:text-slate-300"
            >
              Remove
            </button>
          </>
        ) : null}
      </span>
    </div>
  );
}
