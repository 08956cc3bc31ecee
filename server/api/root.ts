import { chatRouter } from "./routers/chat";
import { editorRouter } from "./routers/editor";
import { inspectorRouter } from "./routers/inspector";
import { registryRouter } from "./routers/registry";
import { threadsRouter } from "./routers/threads";
import { router } from "./trpc";

export const appRouter = router({
  registry: registryRouter,
  threads: threadsRouter,
  chat: chatRouter,
  editor: editorRouter,
  inspector: inspectorRouter,
});

export type AppRouter = typeof appRouter;
