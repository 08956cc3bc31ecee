// ESLint flat config. The import rules enforce the folder boundaries of the design (what may import what).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

const prismaClient = ["@prisma/client", "@prisma/client/*", "**/generated/prisma", "**/generated/prisma/*"];
/** Provider SDKs imported only by the built-in providers (server/runtime/llm/providers/). */
const providerSdks = ["@anthropic-ai/sdk", "@anthropic-ai/sdk/*", "@google/genai", "@google/genai/*"];

export default tseslint.config(
  {
    ignores: [
      "node_modules/**",
      ".next/**",
      "server/db/generated/**",
      "next-env.d.ts",
      "data/**",
      "test-results/**",
      "playwright-report/**",
      ".tmp/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-explicit-any": "off",
      "no-empty": ["error", { allowEmptyCatch: true }],
    },
  },
  {
    // The runtime runs in a worker process too: no framework, no Prisma, no env reads, openai only in llm/.
    files: ["server/runtime/**/*.ts"],
    ignores: ["server/runtime/llm/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["next", "next/*", "react", "react-dom", "react/*"], message: "server/runtime never imports Next.js or React." },
            { group: prismaClient, message: "server/runtime never imports the Prisma client; use a port implemented in server/db." },
            { group: ["@/server/db", "@/server/db/*", "@/server/api", "@/server/api/*", "@/server/worker", "@/server/worker/*"], message: "server/runtime depends only on spec, registry and its own ports." },
            { group: ["openai", "openai/*"], message: "Only server/runtime/llm/ imports the openai SDK." },
            {
              group: ["@modelcontextprotocol/*", "@/server/mcp", "@/server/mcp/*"],
              message: "server/runtime reaches MCP servers through McpClientPort (ports/mcp.ts); the SDK client lives in server/mcp/.",
            },
            { group: providerSdks, message: "Only the built-in providers (server/runtime/llm/providers/) import a provider SDK." },
          ],
        },
      ],
      "no-restricted-properties": ["error", { object: "process", property: "env", message: "The runtime never reads process.env; configuration is passed in." }],
    },
  },
  {
    // The provider SDKs other than openai (whose error classes retry.ts reads) stay in the built-in providers' folder.
    files: ["server/runtime/llm/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["next", "next/*", "react", "react-dom", "react/*"], message: "server/runtime never imports Next.js or React." },
            { group: prismaClient, message: "server/runtime never imports the Prisma client." },
            { group: ["@/server/db", "@/server/db/*", "@/server/api", "@/server/api/*"], message: "server/runtime depends only on spec, registry and its own ports." },
            { group: providerSdks, message: "Only the built-in providers (server/runtime/llm/providers/) import a provider SDK." },
          ],
        },
      ],
      "no-restricted-properties": ["error", { object: "process", property: "env", message: "The runtime never reads process.env." }],
    },
  },
  {
    // The built-in providers: the one place the provider SDKs are imported.
    files: ["server/runtime/llm/providers/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["next", "next/*", "react", "react-dom", "react/*"], message: "server/runtime never imports Next.js or React." },
            { group: prismaClient, message: "server/runtime never imports the Prisma client." },
            { group: ["@/server/db", "@/server/db/*", "@/server/api", "@/server/api/*"], message: "server/runtime depends only on spec, registry and its own ports." },
          ],
        },
      ],
    },
  },
  {
    // The spec module is browser-safe: zod only.
    files: ["server/spec/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ regex: "^(?!zod$|zod/|\\./|\\.\\./|vitest$).*", message: "server/spec imports only zod (it is shared with the browser)." }] },
      ],
    },
  },
  {
    // Code the browser and the server both run: zod, server/spec and each other only.
    files: ["shared/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ regex: "^(?!zod$|zod/|\\./|\\.\\./|@/shared/|@/server/spec$|@/server/spec/|vitest$).*", message: "shared/ imports only zod, server/spec and shared/ (it runs in the browser too)." }] },
      ],
    },
  },
  {
    // UI components run in the browser: server code comes only from shared/ and server/spec (both browser-safe); the
    // rest of the server is reached through tRPC, whose client is typed by the router's type alone.
    files: ["components/**/*.ts", "components/**/*.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "@/server/api/root", allowTypeImports: true, message: "UI components import only the AppRouter type from the router (`import type`)." },
            { name: "@/server/api/root", allowImportNames: ["AppRouter"], message: "UI components import only the AppRouter type from the router (`import type`)." },
          ],
          patterns: [
            { regex: "^@/server/(?!spec$|spec/|api/root$)", message: "UI components import server code only from shared/ and server/spec; they talk to the server through tRPC." },
            { group: prismaClient, message: "UI components never import the Prisma client." },
          ],
        },
      ],
    },
  },
  {
    files: ["server/registry/**/*.ts", "server/api/**/*.ts", "app/**/*.ts", "app/**/*.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["openai", "openai/*"], message: "Only server/runtime/llm/ imports the openai SDK." },
            { group: providerSdks, message: "Only the built-in providers (server/runtime/llm/providers/) import a provider SDK." },
          ],
        },
      ],
    },
  },
  {
    // server/api reads and writes the database only through server/db (the read models in server/db/queries and the
    // runtime's stores): no Prisma client, no generated Prisma types, no SQL. The composition root (server/worker)
    // imports server/api, never the reverse: routes get the app through their context.
    files: ["server/api/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["openai", "openai/*"], message: "Only server/runtime/llm/ imports the openai SDK." },
            {
              group: [...prismaClient, "@prisma/*", "**/db/client", "**/db/generated", "**/db/generated/**"],
              message: "server/api never touches Prisma: read and write through server/db/queries (or the runtime's stores).",
            },
            { group: ["@/server/worker", "@/server/worker/*", "**/worker/*"], message: "server/worker imports server/api, not the reverse: the app comes through the route's context." },
          ],
        },
      ],
      "no-restricted-properties": [
        "error",
        ...["$queryRaw", "$queryRawUnsafe", "$executeRaw", "$executeRawUnsafe", "$transaction"].map((property) => ({
          property,
          message: "server/api writes no SQL and opens no transactions: add a query to server/db/queries.",
        })),
      ],
    },
  },
);
