"use client";

import { createContext, useCallback, useContext, useEffect, useMemo, useState } from "react";

/**
 * Fields whose input is not applied (text that does not parse, a value the schema refuses): each field reports its
 * refusal here while it shows it, so the save status can say so instead of "All changes saved".
 */
export type ReportInput = (key: string, message: string | null) => void;

export const InputReportContext = createContext<ReportInput>(() => {});

/** The map of refused inputs (field key → message) and the reporter fields call. */
export function useInputReports(): { refused: ReadonlyMap<string, string>; report: ReportInput } {
  const [refused, setRefused] = useState<ReadonlyMap<string, string>>(new Map());
  const report = useCallback<ReportInput>((key, message) => {
    setRefused((prev) => {
      if ((prev.get(key) ?? null) === message) return prev;
      const next = new Map(prev);
      if (message === null) next.delete(key);
      else next.set(key, message);
      return next;
    });
  }, []);
  return useMemo(() => ({ refused, report }), [refused, report]);
}

/** Reports `error` for the field `key` while it is shown, and clears it when the field goes away. */
export function useReportInput(key: string, error: string | null | undefined): void {
  const report = useContext(InputReportContext);
  useEffect(() => {
    report(key, error ?? null);
    return () => report(key, null);
  }, [report, key, error]);
}
