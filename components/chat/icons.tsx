/** Small stroke icons (inline SVG: they render the same everywhere, with no emoji font needed). */
type IconProps = { className?: string };

const base = {
  width: 16,
  height: 16,
  viewBox: "0 0 24 24",
  fill: "none",
  stroke: "currentColor",
  strokeWidth: 2,
  strokeLinecap: "round" as const,
  strokeLinejoin: "round" as const,
  "aria-hidden": true,
};

export function PaperclipIcon({ className = "" }: IconProps) {
  return (
    <svg {...base} className={className}>
      <path d="M21.44 11.05l-9.19 9.19a6 6 0 0 1-8.49-8.49l9.19-9.19a4 4 0 0 1 5.66 5.66l-9.2 9.19a2 2 0 0 1-2.83-2.83l8.49-8.48" />
    </svg>
  );
}

export function FileIcon({ className = "" }: IconProps) {
  return (
    <svg {...base} className={className}>
      <path d="M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8z" />
      <path d="M14 2v6h6" />
    </svg>
  );
}

export function BranchIcon({ className = "" }: IconProps) {
  return (
    <svg {...base} className={className}>
      <circle cx="6" cy="5" r="2" />
      <circle cx="6" cy="19" r="2" />
      <circle cx="18" cy="9" r="2" />
      <path d="M6 7v10M18 11c0 4-6 3-10 6" />
    </svg>
  );
}

export function StopIcon({ className = "" }: IconProps) {
  return (
    <svg {...base} className={className}>
      <rect x="6" y="6" width="12" height="12" rx="1.5" fill="currentColor" />
    </svg>
  );
}

export function SendIcon({ className = "" }: IconProps) {
  return (
    <svg {...base} className={className}>
      <path d="M22 2L11 13M22 2l-7 20-4-9-9-4z" />
    </svg>
  );
}

/** A chevron pointing right; rotate it 90° for "open". */
export function ChevronIcon({ className = "" }: IconProps) {
  return (
    <svg {...base} width={12} height={12} strokeWidth={2.5} className={className}>
      <path d="M9 6l6 6-6 6" />
    </svg>
  );
}
