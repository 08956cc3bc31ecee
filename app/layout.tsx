import type { Metadata } from "next";
import localFont from "next/font/local";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import "@xyflow/react/dist/style.css";
import "./globals.css";
import { KeyboardShortcuts } from "@/components/shortcuts/keyboard-shortcuts";
import { AppHeader } from "@/components/ui/app-header";
import { Providers } from "@/components/trpc-provider";
import { pageAuth, PUBLIC_PAGES } from "@/server/api/auth/page-auth";
import { NONCE_HEADER } from "@/server/api/security-headers";
import { getApp } from "@/server/worker/app";

// Self-hosted from npm: the build machine has no access to Google Fonts.
const inter = localFont({
  src: "../node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2",
  variable: "--font-inter",
  display: "swap",
});

export const metadata: Metadata = {
  title: { default: "Standard Agents Studio", template: "%s · Standard Agents Studio" },
  description: "Build, run and inspect Standard Agents.",
};

// Applies the saved or system theme before the first paint, so there is no flash of the wrong theme.
const themeScript = `try{var t=localStorage.getItem("theme");if(t==="dark"||(!t&&matchMedia("(prefers-color-scheme: dark)").matches))document.documentElement.classList.add("dark")}catch(e){}`;

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page but sign-in and setup needs a signed-in user (or the local, account-less mode).
  const h = await headers();
  const requested = h.get("x-pathname") ?? "/";
  const auth = await pageAuth(await getApp(), h);
  if (!auth.caller && !PUBLIC_PAGES.has(requested.split("?")[0]!)) redirect(auth.setupNeeded ? "/setup" : `/login?next=${encodeURIComponent(requested)}`);
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <script nonce={h.get(NONCE_HEADER) ?? undefined} dangerouslySetInnerHTML={{ __html: themeScript }} />
      </head>
      <body className={`${inter.variable} min-h-screen font-sans antialiased`}>
        <Providers>
          <AppHeader caller={auth.caller} setupNeeded={auth.setupNeeded} />
          <main className="mx-auto w-full max-w-6xl px-4 py-6">{children}</main>
          <KeyboardShortcuts />
        </Providers>
      </body>
    </html>
  );
}
