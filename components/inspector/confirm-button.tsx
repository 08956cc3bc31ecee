"use client";

import { useState } from "react";
import { buttonClass } from "@/components/ui/button";

const button = buttonClass("secondary", "sm");
const dangerButton = buttonClass("danger", "sm");

/** A destructive action that asks once inline ("Terminate?" → Confirm / Cancel) instead of a browser dialog. */
export function ConfirmButton({
  label,
  question,
  onConfirm,
  disabled,
  testId,
}: {
  label: string;
  question: string;
  onConfirm: () => void;
  disabled?: boolean;
  testId?: string;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" className={dangerButton} disabled={disabled} data-testid={testId} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <span role="group" aria-label={question} className="inline-flex items-center gap-1 text-sm">
      <span>{question}</span>
      <button
        type="button"
        className={dangerButton}
        data-testid={testId ? `${testId}-confirm` : undefined}
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {label}
      </button>
      <button type="button" className={button} onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
