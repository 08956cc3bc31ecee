"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/trpc-provider";
import { buttonClass } from "@/components/ui/button";

import { ConfirmButton } from "./confirm-button";

const button = buttonClass("secondary", "sm");


/** Stop, continue or terminate one thread of the tree. */
export function ThreadControls({ threadId, status }: { threadId: string; status: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const opts = {
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.inspector.pathKey() }),
    onError: (e: { message: string }) => setError(e.message),
  };
  const stop = useMutation(trpc.threads.stop.mutationOptions(opts));
  const cont = useMutation(trpc.threads.continue.mutationOptions(opts));
  const terminate = useMutation(trpc.threads.terminate.mutationOptions(opts));
  const busy = stop.isPending || cont.isPending || terminate.isPending;
  const ended = status === "terminated";
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="thread-controls">
      <button type="button" className={button} disabled={busy || ended || status !== "running"} onClick={() => stop.mutate({ threadId })}>
        Stop
      </button>
      <button type="button" className={button} disabled={busy || ended || status === "running"} onClick={() => cont.mutate({ threadId })}>
        Continue
      </button>
      <ConfirmButton
        label="Terminate"
        question="End this thread for good?"
        disabled={busy || ended}
        testId="terminate-thread"
        onConfirm={() => terminate.mutate({ threadId })}
      />
      {error ? (
        <span role="alert" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </span>
      ) : null}
    </div>
  );
}
