/** Where the thread pages live (the chat and the inspector), in one place. */
export const chatHref = (threadId: string) => `/threads/${encodeURIComponent(threadId)}`;
export const inspectorHref = (threadId: string) => `/threads/${encodeURIComponent(threadId)}?view=inspector`;
export const filesHref = (threadId: string) => `/threads/${encodeURIComponent(threadId)}?view=inspector&tab=files`;
export const newThreadHref = (agent: string) => `/threads/new?agent=${encodeURIComponent(agent)}`;
