"use client";

import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { useState, type ReactNode } from "react";
import type { AppRouter } from "@/server/api/root";

export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();

function baseUrl() {
  return typeof window !== "undefined" ? "" : `http://127.0.0.1:${process.env.PORT ?? 3000}`;
}

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: { queries: { staleTime: 5_000, refetchOnWindowFocus: false } },
        queryCache: new QueryCache({ onError: toLoginWhenSignedOut }),
        mutationCache: new MutationCache({ onError: toLoginWhenSignedOut }),
      }),
  );
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [
        splitLink({
          condition: (op) => op.type === "subscription",
          true: httpSubscriptionLink({ url: `${baseUrl()}/api/trpc` }),
          false: httpBatchLink({ url: `${baseUrl()}/api/trpc` }),
        }),
      ],
    }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}

/** When the server says the session is missing or expired, go to the sign-in page and come back afterwards. */
function toLoginWhenSignedOut(error: unknown) {
  const code = (error as { data?: { code?: string } } | null)?.data?.code;
  if (code !== "UNAUTHORIZED" || typeof window === "undefined" || window.location.pathname === "/login") return;
  window.location.assign(`/login?next=${encodeURIComponent(window.location.pathname + window.location.search)}`);
}
