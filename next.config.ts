import type { NextConfig } from "next";
import { STATIC_SECURITY_HEADERS } from "./server/api/security-headers";

const nextConfig: NextConfig = {
  // Native and runtime-loaded packages stay outside the bundle: better-sqlite3 is a native addon, jiti loads the
  // definition files under AGENTS_DIR at run time, and the WASM schema engine reads its .wasm from node_modules.
  serverExternalPackages: [
    "better-sqlite3",
    "jiti",
    "prettier",
    "@prisma/schema-engine-wasm",
    "@prisma/adapter-better-sqlite3",
    "@prisma/adapter-pg",
    "pg",
    // One copy of the OpenTelemetry API for the whole process, shared with the SDK that scripts/start.ts registers.
    "@opentelemetry/api",
    "pino",
  ],
  // A separate build folder lets several builds coexist (e.g. parallel browser-test runs); default `.next`.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  typedRoutes: false,
  // nosniff, Referrer-Policy and X-Frame-Options on every response; pages also get a nonce-based CSP (proxy.ts).
  async headers() {
    return [{ source: "/:path*", headers: STATIC_SECURITY_HEADERS }];
  },
};

export default nextConfig;
