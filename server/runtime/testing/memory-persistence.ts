import type { RuntimeEvent, ThreadEventEnvelope } from "@/shared/runtime-events";
import { newId, nowMicros } from "../ids";
import type {
  EnvValueRecord,
  FileRecordRow,
  LlmLogRecord,
  MessageRecord,
  Persistence,
  QueuedMessageRecord,
  ScheduledEffectRecord,
  Stores,
  SubagentRecord,
  VariableRequestRecord,
  ToolApprovalRecord,
  ThreadRecord,
  WorkItemRecord,
} from "../ports";

interface WorkRow extends WorkItemRecord {
  status: "pending" | "claimed" | "done" | "failed";
  leaseOwner: string | null;
  leaseExpiresAt: number;
  dedupeKey: string | null;
}

const clone = <T>(v: T): T => structuredClone(v);

/**
 * In-memory implementation of every runtime port, for unit tests. Transactions run against a copy of the state
 * that is committed only when the function succeeds, so a throwing transaction leaves nothing behind.
 */
export class MemoryPersistence implements Persistence {
  private data = {
    threads: new Map<string, ThreadRecord>(),
    messages: new Map<string, MessageRecord>(),
    queue: new Map<string, QueuedMessageRecord>(),
    events: new Map<string, ThreadEventEnvelope[]>(),
    logs: [] as LlmLogRecord[],
    work: new Map<string, WorkRow>(),
    env: new Map<string, EnvValueRecord>(),
    files: new Map<string, FileRecordRow & { data: Uint8Array | null }>(),
    effects: new Map<string, ScheduledEffectRecord>(),
    subagents: new Map<string, SubagentRecord>(),
    requests: new Map<string, VariableRequestRecord>(),
    toolCallRuns: new Map<string, number>(),
    approvals: new Map<string, ToolApprovalRecord>(),
  };
  private lock: Promise<unknown> = Promise.resolve();

  private get s(): Stores {
    return buildStores(() => this.data);
  }
  get threads() { return this.s.threads; }
  get messages() { return this.s.messages; }
  get queue() { return this.s.queue; }
  get events() { return this.s.events; }
  get llmLogs() { return this.s.llmLogs; }
  get work() { return this.s.work; }
  get env() { return this.s.env; }
  get files() { return this.s.files; }
  get effects() { return this.s.effects; }
  get subagents() { return this.s.subagents; }
  get variableRequests() { return this.s.variableRequests; }
  get toolCallRuns() { return this.s.toolCallRuns; }
  get approvals() { return this.s.approvals; }

  async transaction<T>(fn: (tx: Stores) => Promise<T>): Promise<T> {
    const run = async () => {
      const copy = {
        threads: new Map([...this.data.threads].map(([k, v]) => [k, clone(v)])),
        messages: new Map([...this.data.messages].map(([k, v]) => [k, clone(v)])),
        queue: new Map([...this.data.queue].map(([k, v]) => [k, clone(v)])),
        events: new Map([...this.data.events].map(([k, v]) => [k, [...v]])),
        logs: [...this.data.logs],
        work: new Map([...this.data.work].map(([k, v]) => [k, clone(v)])),
        env: new Map(this.data.env),
        files: new Map(this.data.files),
        effects: new Map([...this.data.effects].map(([k, v]) => [k, clone(v)])),
        subagents: new Map([...this.data.subagents].map(([k, v]) => [k, clone(v)])),
        requests: new Map([...this.data.requests].map(([k, v]) => [k, clone(v)])),
        toolCallRuns: new Map(this.data.toolCallRuns),
        approvals: new Map([...this.data.approvals].map(([k, v]) => [k, clone(v)])),
      };
      const result = await fn(buildStores(() => copy));
      this.data = copy;
      return result;
    };
    const next = this.lock.then(run, run);
    this.lock = next.catch(() => undefined);
    return next;
  }
}

function buildStores(get: () => any): Stores {
  const d = () => get() as ReturnType<typeof get>;
  const msgs = (threadId: string) => [...d().messages.values()].filter((m: MessageRecord) => m.threadId === threadId).sort((a: MessageRecord, b: MessageRecord) => a.seq - b.seq) as MessageRecord[];
  return {
    threads: {
      async create(input) {
        const now = new Date();
        const t: ThreadRecord = {
          id: input.id ?? newId(), agentId: input.agentId, rootAgentId: input.agentId, parentId: input.parentId ?? null,
          userId: input.userId ?? null, status: input.status ?? "idle", stopReason: null, terminatedAt: null, stopRequestedAt: null,
          tags: input.tags ?? [], name: input.name ?? null, state: clone(input.state), createdAt: now, updatedAt: now,
          lastActivityAt: now, version: 0,
        };
        d().threads.set(t.id, t);
        return clone(t);
      },
      async get(id) { const t = d().threads.get(id); return t ? clone(t) : null; },
      async update(id, patch) {
        const t = d().threads.get(id);
        if (!t) throw new Error(`thread ${id} not found`);
        const next = { ...t, ...clone(patch), version: t.version + 1, updatedAt: new Date(), lastActivityAt: new Date() };
        d().threads.set(id, next);
        return clone(next);
      },
      async list(f) {
        let all = [...d().threads.values()] as ThreadRecord[];
        if (f.agentId) all = all.filter((t) => t.agentId === f.agentId);
        if (f.parentId !== undefined) all = all.filter((t) => t.parentId === f.parentId);
        if (f.status) all = all.filter((t) => t.status === f.status);
        const offset = f.offset ?? 0;
        return { threads: all.slice(offset, offset + (f.limit ?? 50)).map(clone), total: all.length };
      },
      async lock() {},
      async listRunning() { return [...d().threads.values()].filter((t: ThreadRecord) => t.status === "running").map((t: ThreadRecord) => t.id); },
      async pendingAborts(ids) {
        return ids.flatMap((id) => {
          const t = d().threads.get(id) as ThreadRecord | undefined;
          if (!t || (t.status !== "terminated" && t.stopRequestedAt === null)) return [];
          return [{ id, reason: t.status === "terminated" ? ("terminated" as const) : ("user_stop" as const) }];
        });
      },
    },
    messages: {
      async append(threadId, m) {
        const seq = (msgs(threadId).at(-1)?.seq ?? 0) + 1;
        const rec: MessageRecord = { ...clone(m), id: m.id ?? newId(), threadId, seq, createdAt: m.createdAt ?? nowMicros() } as MessageRecord;
        if (d().messages.has(rec.id)) throw new Error(`duplicate message id ${rec.id}`);
        d().messages.set(rec.id, rec);
        return clone(rec);
      },
      async get(id) { const m = d().messages.get(id); return m ? clone(m) : null; },
      async list(threadId, o = {}) {
        let all = msgs(threadId);
        if (!o.includeSilent) all = all.filter((m) => !m.silent);
        if (o.afterSeq !== undefined) all = all.filter((m) => m.seq > o.afterSeq!);
        if (o.beforeSeq !== undefined) all = all.filter((m) => m.seq < o.beforeSeq!);
        if (o.order === "desc") all.reverse();
        const off = o.offset ?? 0;
        return all.slice(off, o.limit === undefined ? undefined : off + o.limit).map(clone);
      },
      async count(threadId, o = {}) { return msgs(threadId).filter((m) => o.includeSilent || !m.silent).length; },
      async lastSeq(threadId) { return msgs(threadId).at(-1)?.seq ?? 0; },
      async update(id, patch) {
        const m = d().messages.get(id);
        if (!m) throw new Error(`message ${id} not found`);
        const next = { ...m, ...clone(patch) };
        d().messages.set(id, next);
        return clone(next);
      },
      async delete(id) { return d().messages.delete(id); },
    },
    queue: {
      async enqueue(threadId, input) {
        const seq = [...d().queue.values()].filter((q: QueuedMessageRecord) => q.threadId === threadId).length + 1;
        const q: QueuedMessageRecord = { id: newId(), threadId, seq, role: input.role, content: input.content, attachments: input.attachments ?? null, silent: input.silent ?? false, metadata: input.metadata ?? null, status: "pending", createdAt: new Date() };
        d().queue.set(q.id, q);
        return clone(q);
      },
      async pending(threadId) { return ([...d().queue.values()] as QueuedMessageRecord[]).filter((q) => q.threadId === threadId && q.status === "pending").sort((a, b) => a.seq - b.seq).map(clone); },
      async markDelivered(id) { const q = d().queue.get(id); if (q) d().queue.set(id, { ...q, status: "delivered" }); },
      async rejectPending(threadId) {
        let n = 0;
        for (const q of d().queue.values() as Iterable<QueuedMessageRecord>) if (q.threadId === threadId && q.status === "pending") { d().queue.set(q.id, { ...q, status: "rejected" }); n++; }
        return n;
      },
    },
    events: {
      async append(threadId: string, event: RuntimeEvent) {
        const list: ThreadEventEnvelope[] = d().events.get(threadId) ?? [];
        const env: ThreadEventEnvelope = { threadId, seq: list.length + 1, persisted: true, at: new Date().toISOString(), event: clone(event) };
        d().events.set(threadId, [...list, env]);
        return env;
      },
      async appendMany(threadId: string, events: RuntimeEvent[]) {
        const list: ThreadEventEnvelope[] = d().events.get(threadId) ?? [];
        const at = new Date().toISOString();
        const envs = events.map((event, i): ThreadEventEnvelope => ({ threadId, seq: list.length + 1 + i, persisted: true, at, event: clone(event) }));
        d().events.set(threadId, [...list, ...envs]);
        return envs;
      },
      async after(threadId, afterSeq, limit = 1000) { return (d().events.get(threadId) ?? []).filter((e: ThreadEventEnvelope) => e.seq > afterSeq).slice(0, limit); },
      async lastSeq(threadId) { return (d().events.get(threadId) ?? []).length; },
    },
    llmLogs: {
      async insert(log) { const rec = { ...log, id: log.id ?? newId() } as LlmLogRecord; d().logs.push(rec); return rec; },
      async list(threadId, o = {}) {
        const rows = d().logs.filter((l: LlmLogRecord) => l.threadId === threadId);
        const ordered = o.order === "desc" ? [...rows].reverse() : rows;
        return ordered.slice(o.offset ?? 0, (o.offset ?? 0) + (o.limit ?? 200));
      },
      async get(id) { return (d().logs as LlmLogRecord[]).find((l) => l.id === id) ?? null; },
      async complete(id, o) { const i = (d().logs as LlmLogRecord[]).findIndex((l) => l.id === id); if (i >= 0) d().logs[i] = { ...d().logs[i], ...o }; },
      async interruptPending(threadId, error) {
        let n = 0;
        d().logs = (d().logs as LlmLogRecord[]).map((l) => (l.threadId === threadId && l.status === "pending" ? (n++, { ...l, status: "interrupted", error, finishedAt: new Date() }) : l));
        return n;
      },
      async storedRequests(ids) { return (d().logs as LlmLogRecord[]).filter((l) => ids.includes(l.id)).map((l) => ({ id: l.id, request: l.request })); },
      async totals(ids) {
        const rows = (d().logs as LlmLogRecord[]).filter((l) => ids.includes(l.threadId));
        return { inputTokens: sum(rows, "inputTokens"), outputTokens: sum(rows, "outputTokens"), cachedTokens: sum(rows, "cachedTokens"), cost: sum(rows, "cost"), requests: rows.length };
      },
    },
    work: {
      async enqueue(item) {
        const rows = [...d().work.values()] as WorkRow[];
        if (item.dedupeKey && rows.some((r) => r.dedupeKey === item.dedupeKey && r.status === "pending")) return;
        const id = newId();
        d().work.set(id, { id, threadId: item.threadId ?? null, kind: item.kind, payload: item.payload ?? {}, runAt: item.runAt ?? new Date(), attempts: 0, status: "pending", leaseOwner: null, leaseExpiresAt: 0, dedupeKey: item.dedupeKey ?? null });
      },
      async claim(owner, limit, leaseMs) {
        const rows = [...d().work.values()] as WorkRow[];
        const busy = new Set(rows.filter((r) => r.status === "claimed" && r.threadId).map((r) => r.threadId));
        const out: WorkItemRecord[] = [];
        for (const r of rows.filter((x) => x.status === "pending" && x.runAt.getTime() <= Date.now()).sort((a, b) => a.runAt.getTime() - b.runAt.getTime())) {
          if (out.length >= limit) break;
          if (r.threadId && busy.has(r.threadId)) continue;
          if (r.threadId) busy.add(r.threadId);
          Object.assign(r, { status: "claimed", leaseOwner: owner, leaseExpiresAt: Date.now() + leaseMs, attempts: r.attempts + 1, dedupeKey: null });
          out.push({ id: r.id, threadId: r.threadId, kind: r.kind, payload: r.payload, runAt: r.runAt, attempts: r.attempts });
        }
        return out;
      },
      async complete(id) { d().work.delete(id); },
      async cancelEffect(effectId) { for (const [k, r] of d().work as Map<string, WorkRow>) if (r.dedupeKey === `effect:${effectId}` && r.status === "pending") d().work.delete(k); },
      async fail(id, _error, retryAt) { const r = d().work.get(id); if (r) Object.assign(r, retryAt ? { status: "pending", runAt: retryAt, leaseOwner: null } : { status: "failed" }); },
      async extendLeases(owner, leaseMs) { for (const r of d().work.values() as Iterable<WorkRow>) if (r.leaseOwner === owner && r.status === "claimed") r.leaseExpiresAt = Date.now() + leaseMs; },
      async releaseExpired(o = {}) {
        let n = 0;
        for (const r of d().work.values() as Iterable<WorkRow>) if (r.status === "claimed" && (o.all || r.leaseExpiresAt < Date.now())) { Object.assign(r, { status: "pending", leaseOwner: null }); n++; }
        return n;
      },
      async nextRunAt() { const p = ([...d().work.values()] as WorkRow[]).filter((r) => r.status === "pending").map((r) => r.runAt.getTime()); return p.length ? new Date(Math.min(...p)) : null; },
    },
    env: {
      async list(scope, ownerKey) { return ([...d().env.values()] as EnvValueRecord[]).filter((e) => e.scope === scope && e.ownerKey === ownerKey); },
      async visible(threadId, userId) {
        const all = [...d().env.values()] as EnvValueRecord[];
        const of = (scope: string, owner: string | null) => (owner === null ? [] : all.filter((e) => e.scope === scope && e.ownerKey === owner));
        return { thread: of("thread", threadId), user: of("user", userId), instance: of("instance", "instance") };
      },
      async set(scope, ownerKey, name, type, value) { d().env.set(`${scope}|${ownerKey}|${name}`, { scope, ownerKey, name, type, value, updatedAt: new Date() }); },
      async delete(scope, ownerKey, name) { return d().env.delete(`${scope}|${ownerKey}|${name}`); },
    },
    effects: {
      async create(input) {
        const now = new Date();
        const e: ScheduledEffectRecord = { id: newId(), threadId: input.threadId, name: input.name, args: clone(input.args), runAt: input.runAt, status: "pending", attempts: 0, lastError: null, createdAt: now, updatedAt: now };
        d().effects.set(e.id, e);
        return clone(e);
      },
      async get(id) { const e = d().effects.get(id); return e ? clone(e) : null; },
      async list(threadId, f = {}) { return ([...d().effects.values()] as ScheduledEffectRecord[]).filter((e) => e.threadId === threadId && (!f.name || e.name === f.name) && (!f.status || f.status.includes(e.status))).map(clone); },
      async update(id, patch) { const e = d().effects.get(id); const next = { ...e, ...patch, updatedAt: new Date() }; d().effects.set(id, next); return clone(next); },
    },
    subagents: {
      async create(e) { const rec = { ...clone(e), reportedAt: null, updatedAt: new Date() } as SubagentRecord; d().subagents.set(rec.childId, rec); return clone(rec); },
      async get(childId) { const r = d().subagents.get(childId); return r ? clone(r) : null; },
      async byToolCall(parentId, toolCallId) { const r = ([...d().subagents.values()] as SubagentRecord[]).find((x) => x.parentId === parentId && x.toolCallId === toolCallId); return r ? clone(r) : null; },
      async listByParent(parentId) { return ([...d().subagents.values()] as SubagentRecord[]).filter((x) => x.parentId === parentId).sort((a, b) => a.createdAt - b.createdAt).map(clone); },
      async update(childId, patch) { const r = { ...d().subagents.get(childId), ...clone(patch), updatedAt: new Date() }; d().subagents.set(childId, r); return clone(r); },
    },
    variableRequests: {
      async create(input) { const r: VariableRequestRecord = { ...clone(input), id: newId(), status: "open", createdAt: new Date() }; d().requests.set(r.id, r); return clone(r); },
      async get(id) { const r = d().requests.get(id); return r ? clone(r) : null; },
      async fulfill(id) { const r = d().requests.get(id); if (!r || r.status !== "open") return false; d().requests.set(id, { ...r, status: "fulfilled" }); return true; },
    },
    toolCallRuns: {
      async start(messageId, toolCallId) { const key = `${messageId}|${toolCallId}`; const n = (d().toolCallRuns.get(key) ?? 0) + 1; d().toolCallRuns.set(key, n); return n; },
    },
    approvals: {
      async create(input) {
        const key = `${input.messageId}|${input.toolCallId}`;
        const had = d().approvals.get(key);
        if (had) return clone(had);
        const r: ToolApprovalRecord = { ...clone(input), id: newId(), status: "pending", decidedArgs: null, note: null, decidedBy: null, decidedAt: null, createdAt: new Date() };
        d().approvals.set(key, r);
        return clone(r);
      },
      async get(messageId, toolCallId) { const r = d().approvals.get(`${messageId}|${toolCallId}`); return r ? clone(r) : null; },
      async listByThreads(ids, statuses) { return ([...d().approvals.values()] as ToolApprovalRecord[]).filter((a) => ids.includes(a.threadId) && (!statuses || statuses.includes(a.status))).map(clone); },
      async decide(id, dec) {
        const r = ([...d().approvals.values()] as ToolApprovalRecord[]).find((a) => a.id === id);
        if (!r || r.status !== "pending") return false;
        d().approvals.set(`${r.messageId}|${r.toolCallId}`, { ...r, ...clone(dec), decidedAt: new Date() });
        return true;
      },
    },
    files: {
      async write(threadId, path, data, o) {
        const now = new Date();
        const row = { threadId, path, isDirectory: false, mimeType: o.mimeType ?? null, size: data.byteLength, sourceThreadId: o.sourceThreadId ?? null, sourcePath: o.sourcePath ?? null, metadata: o.metadata ?? null, createdAt: now, updatedAt: now, data: new Uint8Array(data) };
        d().files.set(`${threadId}|${path}`, row);
        const { data: _d, ...rest } = row;
        return rest;
      },
      async read(threadId, path) { const f = d().files.get(`${threadId}|${path}`); return f?.data ? new Uint8Array(f.data) : null; },
      async stat(threadId, path) { const f = d().files.get(`${threadId}|${path}`); if (!f) return null; const { data: _d, ...rest } = f; return rest; },
      async list(threadId, prefix) { return ([...d().files.values()] as (FileRecordRow & { data: unknown })[]).filter((f) => f.threadId === threadId && (prefix === "/" || f.path.startsWith(prefix))).map(({ data: _d, ...rest }) => rest); },
      async mkdir(threadId, path) { const now = new Date(); const row = { threadId, path, isDirectory: true, mimeType: null, size: 0, sourceThreadId: null, sourcePath: null, metadata: null, createdAt: now, updatedAt: now, data: null }; d().files.set(`${threadId}|${path}`, row); const { data: _d, ...rest } = row; return rest; },
      async delete(threadId, path) { return d().files.delete(`${threadId}|${path}`); },
    },
  };
}

const sum = (rows: LlmLogRecord[], k: "inputTokens" | "outputTokens" | "cachedTokens" | "cost") => rows.reduce((s, r) => s + r[k], 0);
