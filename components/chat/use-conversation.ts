"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import { useTRPC } from "@/components/trpc-provider";
import { conversationReducer, initialConversation } from "./conversation-reducer";
import type { Attachment, PendingMessage, Snapshot, ThreadEvent } from "./types";

/** tRPC delivers tracked events as `{id, data}` and the others as the payload itself. */
function unwrap(d: ThreadEvent | { id: string; data: ThreadEvent }): ThreadEvent {
  return "type" in d ? d : d.data;
}

export function localId(): string {
  const c = globalThis.crypto as Crypto | undefined;
  return `local-${c?.randomUUID ? c.randomUUID() : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`}`;
}

export type ConnectionState = "connecting" | "live" | "reconnecting" | "error";

/**
 * A live conversation: starts from the snapshot, then applies the thread's events from the snapshot's event seq on
 * (tracked ids: a dropped connection resumes where it left off, and every event is applied idempotently).
 */
export function useConversation(snapshot: Snapshot) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const threadId = snapshot.thread.id;
  const [state, dispatch] = useReducer(conversationReducer, snapshot, initialConversation);
  const [since] = useState(() => String(snapshot.lastEventSeq));
  const wasLive = useRef(false);
  const refreshTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  // Usage and child statuses follow the stream, debounced.
  const refreshSoon = useCallback(() => {
    if (refreshTimer.current) return;
    refreshTimer.current = setTimeout(() => {
      refreshTimer.current = null;
      void queryClient.invalidateQueries({ queryKey: trpc.chat.usage.queryKey({ threadId }) });
      void queryClient.invalidateQueries({ queryKey: trpc.chat.statuses.pathKey() });
    }, 800);
  }, [queryClient, threadId, trpc]);
  useEffect(() => () => void (refreshTimer.current && clearTimeout(refreshTimer.current)), []);

  const sub = useSubscription(
    trpc.chat.events.subscriptionOptions(
      { threadId, lastEventId: since },
      {
        onData: (d) => {
          const event = unwrap(d);
          dispatch({ type: "event", event });
          if (event.type === "llm.response" || event.type === "message.created" || event.type === "thread.status")
            refreshSoon();
        },
      },
    ),
  );
  if (sub.status === "pending") wasLive.current = true;
  const connection: ConnectionState =
    sub.status === "pending"
      ? "live"
      : sub.status === "error"
        ? "error"
        : wasLive.current
          ? "reconnecting"
          : "connecting";

  const postMutation = useMutation(trpc.threads.post.mutationOptions());
  const send = useCallback(
    async (input: { content: string; attachments: Attachment[]; role: "user" | "assistant"; retryOf?: string }) => {
      const id = input.retryOf ?? localId();
      if (input.retryOf) dispatch({ type: "pending.remove", id: input.retryOf });
      const pending: PendingMessage = {
        id,
        role: input.role,
        content: input.content,
        attachments: input.attachments,
        state: "sending",
        createdAt: Date.now(),
      };
      dispatch({ type: "pending.add", message: pending });
      try {
        const { messageId } = await postMutation.mutateAsync({
          threadId,
          content: input.content,
          role: input.role,
          attachments: input.attachments.map((a) => ({
            path: a.path,
            name: a.name,
            mimeType: a.mimeType,
            size: a.size,
          })),
          metadata: { source: "chat" },
        });
        dispatch({ type: "pending.sent", tempId: id, id: messageId });
      } catch (err) {
        dispatch({ type: "pending.failed", id, error: err instanceof Error ? err.message : String(err) });
      }
    },
    [postMutation, threadId],
  );

  // Older messages page in above the ones shown (the first paint has only the latest few hundred).
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [olderError, setOlderError] = useState<string | null>(null);
  const loading = useRef(false);
  const firstSeq = state.messages[0]?.seq;
  const loadOlder = useCallback(async () => {
    if (loading.current || !state.hasOlder || firstSeq === undefined) return;
    loading.current = true;
    setLoadingOlder(true);
    try {
      const page = await queryClient.fetchQuery(
        trpc.chat.older.queryOptions({ threadId, beforeSeq: firstSeq, limit: 1_000 }, { staleTime: 0, gcTime: 0 }),
      );
      dispatch({ type: "older", messages: page.messages, hasOlder: page.hasOlder });
      setOlderError(null);
    } catch (err) {
      setOlderError(err instanceof Error ? err.message : String(err));
    } finally {
      loading.current = false;
      setLoadingOlder(false);
    }
  }, [firstSeq, queryClient, state.hasOlder, threadId, trpc]);

  return { state, dispatch, send, connection, connectionError: sub.error, loadOlder, loadingOlder, olderError };
}
