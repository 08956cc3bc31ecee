"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { buttonClass } from "../ui/button";
import { useTRPC } from "../trpc-provider";
import { errorText, inputClass } from "@/components/ui/styles";

/** "Save this thread as a case" of an eval of the thread's agent (evals whose cases are a JSONL file). */
export function SaveAsCase({ threadId, agentId }: { threadId: string; agentId: string }) {
  const trpc = useTRPC();
  const evals = useQuery(trpc.evals.list.queryOptions());
  const save = useMutation(trpc.evals.saveCase.mutationOptions());
  const mine = (evals.data?.evals ?? []).filter((e) => e.agent === agentId && e.cases_file?.endsWith(".jsonl"));
  const [picked, setPicked] = useState("");
  if (mine.length === 0) return null;
  const name = picked || mine[0]!.name;
  return (
    <section aria-labelledby="save-case-heading" className="flex flex-col gap-2 text-sm">
      <h2 id="save-case-heading" className="text-sm font-semibold">
        Eval case
      </h2>
      <div className="flex flex-wrap items-center gap-2">
        <label className="sr-only" htmlFor="save-case-eval">
          Eval
        </label>
        <select id="save-case-eval" className={`${inputClass} py-1 text-xs`} value={name} onChange={(e) => setPicked(e.target.value)}>
          {mine.map((e) => (
            <option key={e.name} value={e.name}>
              {e.name}
            </option>
          ))}
        </select>
        <button type="button" className={buttonClass("secondary", "xs")} disabled={save.isPending} onClick={() => save.mutate({ name, threadId })}>
          Save as case
        </button>
      </div>
      {save.data ? (
        <p role="status" className="text-xs text-emerald-800 dark:text-emerald-200">
          Saved case {String(save.data.case.id)} to {save.data.file}.
        </p>
      ) : null}
      {save.error ? (
        <p role="alert" className="text-xs text-red-700 dark:text-red-300">
          {errorText(save.error)}
        </p>
      ) : null}
    </section>
  );
}
