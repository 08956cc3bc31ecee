import { accountRouter } from "./routers/account";
import { adminRouter } from "./routers/admin";
import { chatRouter } from "./routers/chat";
import { controlsRouter } from "./routers/controls";
import { editorRouter } from "./routers/editor";
import { evalsRouter } from "./routers/evals";
import { inspectorRouter } from "./routers/inspector";
import { threadEnvRouter } from "./routers/thread-env";
import { registryRouter } from "./routers/registry";
import { threadsRouter } from "./routers/threads";
import { router } from "./trpc";

export const appRouter = router({
  registry: registryRouter,
  threads: threadsRouter,
  chat: chatRouter,
  editor: editorRouter,
  inspector: inspectorRouter,
  account: accountRouter,
  admin: adminRouter,
  threadEnv: threadEnvRouter,
  controls: controlsRouter,
  evals: evalsRouter,
});

export type AppRouter = typeof appRouter;
