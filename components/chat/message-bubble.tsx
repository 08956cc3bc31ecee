import { absoluteTime, formatCost, formatTokens } from "@/components/threads/format";
import { AttachmentList } from "./attachment-list";
import type { Author, ToolCallView } from "./build-rows";
import { Collapsible } from "./collapsible";
import { CopyButton } from "./copy-button";
import { ForkActions } from "./fork-actions";
import { Markdown } from "./markdown";
import { ToolCallCard } from "./tool-call-card";
import { useMessageUsageOf } from "./use-message-usage";
import type { ChatMessage } from "./types";
import { MessageSources } from "./message-sources";
import { ProviderToolCalls } from "./provider-tool-calls";

export function Avatar({ author }: { author: Author }) {
  const tone =
    author.kind === "human"
      ? "bg-slate-700 text-white dark:bg-slate-200 dark:text-slate-900"
      : author.kind === "parent"
        ? "bg-emerald-700 text-white"
        : author.side === "b"
          ? "bg-amber-500 text-white"
          : "bg-indigo-600 text-white";
  return (
    <span
      aria-hidden
      className={`flex h-7 w-7 shrink-0 items-center justify-center rounded-full text-xs font-semibold ${tone}`}
    >
      {author.label
        .replace(/^You as /, "")
        .slice(0, 1)
        .toUpperCase()}
    </span>
  );
}

function Meta({ message }: { message: ChatMessage }) {
  const model = message.metadata?.model;
  const at = message.created_at / 1000;
  const usage = useMessageUsageOf(message.id);
  return (
    <span className="flex items-center gap-2 text-xs text-slate-500 dark:text-slate-400">
      {typeof model === "string" ? <span className="font-mono">{model}</span> : null}
      {usage ? (
        <span
          data-testid="message-usage"
          className="tabular-nums"
          title={`${usage.inputTokens} tokens in${usage.cachedTokens ? ` (${usage.cachedTokens} cached)` : ""}, ${usage.outputTokens} out, ${usage.requests} request${usage.requests === 1 ? "" : "s"}`}
        >
          {formatTokens(usage.inputTokens)} in · {formatTokens(usage.outputTokens)} out · {formatCost(usage.cost)}
        </span>
      ) : null}
      <time dateTime={new Date(at).toISOString()} title={absoluteTime(at)}>
        {new Date(at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}
      </time>
      {message.silent ? (
        <span className="rounded bg-slate-200 px-1.5 text-[0.7rem] text-slate-700 dark:bg-slate-700 dark:text-slate-200">
          silent
        </span>
      ) : null}
    </span>
  );
}

/** Human messages: plain text in a bubble on the right. */
function HumanBubble({ message, author, threadId }: { message: ChatMessage; author: Author; threadId: string }) {
  return (
    <div className="flex flex-col items-end gap-1">
      <span className="flex items-center gap-2 text-xs text-slate-500 dark:text-slate-400">
        <span className="font-medium text-slate-700 dark:text-slate-200">{author.label}</span>
        <Meta message={message} />
      </span>
      <AttachmentList threadId={threadId} attachments={message.attachments ?? []} align="end" />
      {message.content ? (
        <div
          data-testid="message-text"
          className="max-w-[min(85%,40rem)] whitespace-pre-wrap break-words rounded-2xl rounded-tr-sm bg-indigo-600 px-4 py-2 text-[0.95rem] text-white"
        >
          {message.content}
        </div>
      ) : null}
    </div>
  );
}

/** A stored message: author, time, text (markdown for model output), attachments, reasoning and tool calls. */
export function MessageBubble({
  message,
  author,
  toolCalls,
  markdown,
  threadId,
  threadRunning,
}: {
  message: ChatMessage;
  author: Author;
  toolCalls: ToolCallView[];
  markdown: boolean;
  threadId: string;
  threadRunning: boolean;
}) {
  if (author.kind === "system") {
    return (
      <div
        data-testid="message"
        data-role="system"
        className="mx-auto max-w-2xl rounded-lg bg-slate-100 px-3 py-2 text-xs text-slate-600 dark:bg-slate-800/60 dark:text-slate-300"
      >
        <span className="font-semibold">System: </span>
        <span className="whitespace-pre-wrap">{message.content}</span>
      </div>
    );
  }
  if (author.kind === "human" && !markdown) {
    return (
      <div data-testid="message" data-role={message.role} data-author={author.label} className="group flex flex-col items-end">
        <HumanBubble message={message} author={author} threadId={threadId} />
        <ForkActions threadId={threadId} message={message} />
      </div>
    );
  }
  const text = message.content ?? "";
  return (
    <div data-testid="message" data-role={message.role} data-author={author.label} className="group flex gap-3">
      <Avatar author={author} />
      <div className="flex min-w-0 flex-1 flex-col gap-1.5">
        <div className="flex flex-wrap items-center gap-x-2">
          <span data-testid="message-author" className="text-sm font-semibold">
            {author.label}
          </span>
          <Meta message={message} />
          {text ? (
            <CopyButton
              text={text}
              label="Copy"
              className="opacity-0 group-hover:opacity-100 focus-visible:opacity-100"
            />
          ) : null}
        </div>
        {message.reasoning_content ? (
          <Collapsible
            id={`reasoning:${message.id}`}
            className="border-slate-200 bg-slate-50 dark:border-slate-700 dark:bg-slate-900"
            header={<span className="text-xs text-slate-600 dark:text-slate-300">Reasoning</span>}
          >
            <p className="whitespace-pre-wrap text-xs text-slate-600 dark:text-slate-300">
              {message.reasoning_content}
            </p>
          </Collapsible>
        ) : null}
        <ProviderToolCalls metadata={message.metadata} />
        {text ? (
          <div data-testid="message-text" className="text-[0.95rem]">
            {markdown ? <Markdown text={text} /> : <p className="whitespace-pre-wrap break-words">{text}</p>}
          </div>
        ) : null}
        <MessageSources metadata={message.metadata} />
        <AttachmentList threadId={threadId} attachments={message.attachments ?? []} />
        {toolCalls.length > 0 ? (
          <div className="flex flex-col gap-1.5">
            {toolCalls.map((c) => (
              <ToolCallCard key={c.id} call={c} threadRunning={threadRunning} />
            ))}
          </div>
        ) : null}
        <ForkActions threadId={threadId} message={message} />
      </div>
    </div>
  );
}
