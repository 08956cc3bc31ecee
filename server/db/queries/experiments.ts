import { z } from "zod";
import type { PrismaClient } from "../client";
import { parseJsonColumn } from "../json";

const scoreSchema = z.object({
  scorer: z.string(),
  type: z.string(),
  score: z.number(),
  passed: z.boolean(),
  reason: z.string(),
  costUsd: z.number().optional(),
  inputTokens: z.number().optional(),
  outputTokens: z.number().optional(),
});
const objectSchema = z.record(z.string(), z.unknown());

export type StoredScore = z.infer<typeof scoreSchema>;

export interface ExperimentRow {
  id: string;
  evalName: string;
  agentId: string;
  status: string;
  concurrency: number;
  definition: Record<string, unknown>;
  sources: Record<string, string>;
  summary: Record<string, unknown> | null;
  error: string | null;
  createdBy: string | null;
  createdAt: Date;
  heartbeatAt: Date | null;
  finishedAt: Date | null;
}

export interface ExperimentResultRow {
  id: string;
  experimentId: string;
  caseIndex: number;
  caseId: string;
  threadId: string | null;
  status: string;
  input: Record<string, unknown>;
  reply: string | null;
  scores: StoredScore[];
  passed: boolean | null;
  costUsd: number;
  judgeCostUsd: number;
  inputTokens: number;
  outputTokens: number;
  steps: number;
  turns: number;
  latencyMs: number;
  error: string | null;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export type ResultUpdate = Partial<Omit<ExperimentResultRow, "id" | "experimentId" | "caseIndex" | "caseId" | "input">>;

type RawExperiment = Omit<ExperimentRow, "definition" | "sources" | "summary"> & { definition: unknown; sources: unknown; summary: unknown };
type RawResult = Omit<ExperimentResultRow, "input" | "scores"> & { input: unknown; scores: unknown };

function experimentRow(r: RawExperiment): ExperimentRow {
  const ref = (field: string) => ({ model: "Experiment", field, id: r.id });
  return {
    ...r,
    definition: parseJsonColumn(objectSchema, r.definition, ref("definition")),
    sources: parseJsonColumn(z.record(z.string(), z.string()), r.sources, ref("sources")),
    summary: r.summary === null ? null : parseJsonColumn(objectSchema, r.summary, ref("summary")),
  };
}

function resultRow(r: RawResult): ExperimentResultRow {
  const ref = (field: string) => ({ model: "ExperimentResult", field, id: r.id });
  return { ...r, input: parseJsonColumn(objectSchema, r.input, ref("input")), scores: parseJsonColumn(z.array(scoreSchema), r.scores, ref("scores")) };
}

/** Experiments (eval runs) and their per-case results. Runs the same on SQLite and PostgreSQL. */
export function experimentQueries(prisma: PrismaClient) {
  return {
    async create(data: {
      evalName: string;
      agentId: string;
      concurrency: number;
      definition: Record<string, unknown>;
      sources: Record<string, string>;
      createdBy: string | null;
      cases: { caseId: string; input: Record<string, unknown> }[];
    }): Promise<ExperimentRow> {
      const { cases, ...rest } = data;
      const row = await prisma.experiment.create({
        data: {
          ...rest,
          heartbeatAt: new Date(),
          definition: rest.definition as object,
          sources: rest.sources,
          results: { create: cases.map((c, i) => ({ caseIndex: i, caseId: c.caseId, input: c.input as object, scores: [] })) },
        },
      });
      return experimentRow(row);
    },
    async finish(id: string, data: { status: string; summary: Record<string, unknown> | null; error?: string | null }): Promise<void> {
      await prisma.experiment.update({ where: { id }, data: { status: data.status, summary: (data.summary ?? undefined) as object | undefined, error: data.error ?? null, finishedAt: new Date() } });
    },
    /** The running process says it is still at work. */
    async heartbeat(id: string): Promise<void> {
      await prisma.experiment.updateMany({ where: { id, status: "running" }, data: { heartbeatAt: new Date() } });
    },
    /**
     * Running experiments whose heartbeat is older than `before` were interrupted (their process stopped): they end
     * as `error`, and so do their unfinished cases. Returns their ids.
     */
    async failStale(before: Date): Promise<string[]> {
      const stale = await prisma.experiment.findMany({ where: { status: "running", OR: [{ heartbeatAt: null }, { heartbeatAt: { lt: before } }] }, select: { id: true } });
      const ids = stale.map((e) => e.id);
      if (ids.length === 0) return [];
      const message = "interrupted: the process running the experiment stopped before it finished";
      await prisma.experimentResult.updateMany({ where: { experimentId: { in: ids }, status: { in: ["pending", "running"] } }, data: { status: "error", error: message, passed: false } });
      await prisma.experiment.updateMany({ where: { id: { in: ids }, status: "running" }, data: { status: "error", error: message, finishedAt: new Date() } });
      return ids;
    },
    async updateResult(experimentId: string, caseIndex: number, data: ResultUpdate): Promise<void> {
      const { scores, ...rest } = data;
      await prisma.experimentResult.update({
        where: { experimentId_caseIndex: { experimentId, caseIndex } },
        data: { ...rest, ...(scores ? { scores: scores as object[] } : {}) },
      });
    },
    async get(id: string): Promise<ExperimentRow | null> {
      const row = await prisma.experiment.findUnique({ where: { id } });
      return row ? experimentRow(row) : null;
    },
    async results(experimentId: string): Promise<ExperimentResultRow[]> {
      const rows = await prisma.experimentResult.findMany({ where: { experimentId }, orderBy: { caseIndex: "asc" } });
      return rows.map(resultRow);
    },
    /** Newest first; `evalName` filters. */
    async list(input: { evalName?: string; limit: number; offset: number }): Promise<{ experiments: ExperimentRow[]; total: number }> {
      const where = input.evalName ? { evalName: input.evalName } : {};
      const [rows, total] = await Promise.all([
        prisma.experiment.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: input.limit, skip: input.offset }),
        prisma.experiment.count({ where }),
      ]);
      return { experiments: rows.map(experimentRow), total };
    },
  };
}

export type ExperimentQueries = ReturnType<typeof experimentQueries>;
