"use client";

import { useEffect, useId, useRef, useState, type ClipboardEvent, type DragEvent, type KeyboardEvent } from "react";
import { formatBytes } from "@/components/threads/format";
import { FileIcon, PaperclipIcon, StopIcon } from "./icons";
import type { Attachment } from "./types";
import { ACCEPT, useUploads } from "./use-uploads";

interface Props {
  threadId: string;
  /** Why sending is impossible (terminated thread), or null. */
  disabledReason: string | null;
  running: boolean;
  /** dual_ai: the side labels, so the user can post as either side. */
  sides: { a: string; b: string } | null;
  onSend(input: { content: string; attachments: Attachment[]; role: "user" | "assistant" }): void;
  onStop(): void;
  stopping: boolean;
}

/** Enter sends, Shift+Enter adds a line; files by button, paste or drop; Stop while a step runs. */
export function Composer({ threadId, disabledReason, running, sides, onSend, onStop, stopping }: Props) {
  const [text, setText] = useState("");
  // dual_ai: posting as side B (role user) lets side A answer; as side A (role assistant) lets side B answer.
  const [role, setRole] = useState<"user" | "assistant">("user");
  const [dragging, setDragging] = useState(false);
  const area = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const { uploads, add, remove, retry, take, busy } = useUploads(threadId);
  const hintId = useId();
  const disabled = disabledReason !== null;

  useEffect(() => {
    const el = area.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight, 240)}px`;
  }, [text]);
  useEffect(() => {
    if (!disabled) area.current?.focus();
  }, [disabled]);

  const ready = uploads.filter((u) => u.state === "done").length;
  const canSend = !disabled && !busy && (text.trim() !== "" || ready > 0);

  function submit() {
    if (!canSend) return;
    onSend({ content: text, attachments: take(), role: sides ? role : "user" });
    setText("");
  }
  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    } else if (e.key === "Escape" && running) {
      e.preventDefault();
      onStop();
    }
  }
  function onPaste(e: ClipboardEvent<HTMLTextAreaElement>) {
    const files = [...e.clipboardData.files];
    if (files.length > 0) {
      e.preventDefault();
      add(files);
    }
  }
  function onDrop(e: DragEvent) {
    e.preventDefault();
    setDragging(false);
    if (!disabled) add([...e.dataTransfer.files]);
  }

  const sendingAs = sides ? (role === "user" ? sides.b : sides.a) : null;
  const answering = sides ? (role === "user" ? sides.a : sides.b) : null;
  return (
    <form
      aria-label="Send a message"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      onDragOver={(e) => {
        e.preventDefault();
        if (!disabled) setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      className={`mx-auto w-full max-w-3xl rounded-2xl border bg-white shadow-sm dark:bg-slate-900 ${dragging ? "border-indigo-500 ring-2 ring-indigo-300" : "border-slate-300 dark:border-slate-700"}`}
    >
      {sides && !disabled ? (
        <fieldset className="flex flex-wrap items-center gap-2 border-b border-slate-200 px-3 py-2 text-xs dark:border-slate-700">
          <legend className="sr-only">Post as</legend>
          <span className="text-slate-500 dark:text-slate-400">Post as</span>
          {(["user", "assistant"] as const).map((r) => (
            <label
              key={r}
              className={`cursor-pointer rounded-full px-2.5 py-1 font-medium has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-500 ${role === r ? "bg-indigo-600 text-white" : "bg-slate-100 text-slate-700 hover:bg-slate-200 dark:bg-slate-800 dark:text-slate-200"}`}
            >
              <input
                type="radio"
                name="post-as"
                value={r}
                checked={role === r}
                onChange={() => setRole(r)}
                className="sr-only"
              />
              {r === "user" ? sides.b : sides.a}
            </label>
          ))}
          <span className="text-slate-500 dark:text-slate-400">then {answering} answers</span>
        </fieldset>
      ) : null}
      {uploads.length > 0 ? (
        <ul aria-label="Files to send" className="flex flex-wrap gap-2 px-3 pt-3">
          {uploads.map((u) => (
            <li
              key={u.key}
              data-testid="upload"
              data-state={u.state}
              className="flex items-center gap-2 rounded-lg border border-slate-200 bg-slate-50 py-1 pl-1 pr-2 text-xs dark:border-slate-700 dark:bg-slate-800"
            >
              {u.preview ? (
                <img src={u.preview} alt="" className="h-9 w-9 rounded object-cover" />
              ) : (
                <FileIcon className="mx-1.5 text-slate-500 dark:text-slate-400" />
              )}
              <span className="max-w-[10rem] truncate font-medium">{u.file.name}</span>
              <span className="text-slate-500 dark:text-slate-400">
                {u.state === "uploading"
                  ? "uploading…"
                  : u.state === "error"
                    ? `failed: ${u.error}`
                    : formatBytes(u.file.size)}
              </span>
              {u.state === "error" ? (
                <button
                  type="button"
                  onClick={() => retry(u.key)}
                  className="font-medium text-indigo-700 underline dark:text-indigo-300"
                >
                  Retry
                </button>
              ) : null}
              <button
                type="button"
                onClick={() => remove(u.key)}
                aria-label={`Remove ${u.file.name}`}
                className="rounded px-1 text-slate-500 dark:text-slate-400 hover:bg-slate-200 hover:text-slate-900 dark:hover:bg-slate-700 dark:hover:text-white"
              >
                ✕
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="flex items-end gap-2 p-2">
        <input
          ref={fileInput}
          type="file"
          multiple
          accept={ACCEPT}
          className="sr-only"
          tabIndex={-1}
          aria-hidden
          onChange={(e) => {
            add([...(e.target.files ?? [])]);
            e.target.value = "";
          }}
          data-testid="file-input"
        />
        <button
          type="button"
          disabled={disabled}
          onClick={() => fileInput.current?.click()}
          aria-label="Attach files"
          title="Attach images or files"
          className="rounded-lg p-2 text-slate-500 dark:text-slate-400 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:opacity-40 dark:hover:bg-slate-800 dark:hover:text-white"
        >
          <PaperclipIcon />
        </button>
        <label className="min-w-0 flex-1">
          <span className="sr-only">{sendingAs ? `Message as ${sendingAs}` : "Message"}</span>
          <textarea
            ref={area}
            rows={1}
            value={text}
            disabled={disabled}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={onKeyDown}
            onPaste={onPaste}
            aria-describedby={hintId}
            data-testid="composer-input"
            placeholder={disabled ? "Closed" : sendingAs ? `Message as ${sendingAs}…` : "Message…"}
            className="block max-h-60 w-full resize-none bg-transparent px-1 py-2 text-[0.95rem] outline-none placeholder:text-slate-400 disabled:cursor-not-allowed"
          />
        </label>
        {running ? (
          <button
            type="button"
            onClick={onStop}
            disabled={stopping}
            data-testid="stop-button"
            className="rounded-lg border border-slate-300 px-3 py-2 text-sm font-medium hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:opacity-50 dark:border-slate-600 dark:hover:bg-slate-800"
          >
            <span className="flex items-center gap-1.5">
              <StopIcon className="h-3.5 w-3.5" />
              {stopping ? "Stopping…" : "Stop"}
            </span>
          </button>
        ) : null}
        <button
          type="submit"
          disabled={!canSend}
          data-testid="send-button"
          className="rounded-lg bg-indigo-600 px-3 py-2 text-sm font-medium text-white hover:bg-indigo-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:cursor-not-allowed disabled:opacity-40"
        >
          Send
        </button>
      </div>
      <p id={hintId} data-testid="composer-hint" className="px-3 pb-2 text-xs text-slate-500 dark:text-slate-400">
        {disabledReason ??
          (busy
            ? "Uploading files…"
            : running
              ? "Enter sends (queued until the current step ends) · Esc stops"
              : "Enter sends · Shift+Enter for a new line · paste or drop files")}
      </p>
    </form>
  );
}
