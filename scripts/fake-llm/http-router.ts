/**
 * HTTP routing: the OpenAI-compatible endpoints under `/v1` and the control endpoints under `/__` that tests use to
 * replace the script and read the request log.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { handleMessages } from "./anthropic-handler";
import { handleChat, type ChatContext } from "./chat-handler";
import { handleGemini } from "./gemini-handler";
import { handleResponses } from "./responses-handler";
import { BodyError, readJson, sendError, sendJson } from "./http-util";
import { ScriptError, parseScript } from "./script-schema";

/** Models always listed by `GET /v1/models`, after the ones the script names. */
export const DEFAULT_MODELS = ["gpt-4.1-mini", "gpt-4.1", "gpt-4o-mini", "gpt-4o", "fake-model"];

type Handler = (req: IncomingMessage, res: ServerResponse, ctx: ChatContext) => Promise<void> | void;

function modelIds(ctx: ChatContext): string[] {
  return [...new Set([...ctx.script.modelIds(), ...DEFAULT_MODELS])];
}

function modelObject(id: string) {
  return { id, object: "model", created: 0, owned_by: "fake-llm" };
}

function anthropicModels(ids: string[]) {
  const data = ids.map((id) => ({ type: "model", id, display_name: `${id} (scripted)`, created_at: "2026-01-01T00:00:00Z" }));
  return { data, has_more: false, first_id: ids[0] ?? null, last_id: ids.at(-1) ?? null };
}

function geminiModels(ids: string[]) {
  const models = ids.map((id) => ({ name: `models/${id}`, displayName: `${id} (scripted)`, inputTokenLimit: 1_048_576, outputTokenLimit: 65_536, supportedGenerationMethods: ["generateContent", "countTokens"] }));
  return { models };
}

async function postScript(req: IncomingMessage, res: ServerResponse, ctx: ChatContext): Promise<void> {
  const body = await readJson(req);
  try {
    ctx.script.replace(parseScript(body, "POST /__script"));
  } catch (err) {
    if (!(err instanceof ScriptError)) throw err;
    return sendError(res, 400, { message: err.message, code: "invalid_script", details: err.issues });
  }
  sendJson(res, 200, { ok: true, rules: ctx.script.getRules().length });
}

const routes: Record<string, Partial<Record<string, Handler>>> = {
  "/v1/chat/completions": { POST: handleChat },
  "/v1/messages": { POST: handleMessages },
  "/v1/responses": { POST: handleResponses },
  "/v1/models": {
    // The Anthropic SDK sends `anthropic-version`: its list has Anthropic's page shape.
    GET: (req, res, ctx) =>
      req.headers["anthropic-version"]
        ? sendJson(res, 200, anthropicModels(modelIds(ctx)))
        : sendJson(res, 200, { object: "list", data: modelIds(ctx).map(modelObject) }),
  },
  "/v1beta/models": { GET: (_req, res, ctx) => sendJson(res, 200, geminiModels(modelIds(ctx))) },
  "/__script": {
    GET: (_req, res, ctx) => sendJson(res, 200, { rules: ctx.script.getRules(), hits: ctx.script.getHits() }),
    POST: postScript,
  },
  "/__requests": {
    GET: (_req, res, ctx) => sendJson(res, 200, { requests: ctx.log.list() }),
    DELETE: (_req, res, ctx) => {
      ctx.log.clear();
      sendJson(res, 200, { ok: true });
    },
  },
  "/__health": { GET: (_req, res) => sendJson(res, 200, { ok: true, scripted: true }) },
};

function route(pathname: string, method: string): Handler | "bad-method" | null {
  const byMethod = routes[pathname];
  if (byMethod) return byMethod[method] ?? "bad-method";
  const gemini = /^\/v1beta\/models\/([^/:]+):streamGenerateContent$/.exec(pathname)?.[1];
  if (gemini !== undefined) return method === "POST" ? (req, res, ctx) => handleGemini(req, res, ctx, decodeURIComponent(gemini)) : "bad-method";
  const model = /^\/v1\/models\/(.+)$/.exec(pathname)?.[1];
  if (model === undefined) return null;
  if (method !== "GET") return "bad-method";
  return (_req, res, ctx) => {
    const id = decodeURIComponent(model);
    if (modelIds(ctx).includes(id)) return sendJson(res, 200, modelObject(id));
    sendError(res, 404, {
      message: `The model '${id}' does not exist on this scripted server.`,
      code: "model_not_found",
    });
  };
}

export function createRequestListener(ctx: ChatContext) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const method = req.method ?? "GET";
    const pathname = new URL(req.url ?? "/", "http://127.0.0.1").pathname.replace(/\/+$/, "") || "/";
    const handler = route(pathname, method);
    if (handler === null) {
      return sendError(res, 404, {
        message: `fake-llm has no route ${method} ${pathname}. Routes: POST /v1/chat/completions, POST /v1/messages, POST /v1/responses, POST /v1beta/models/{model}:streamGenerateContent, GET /v1/models, GET /v1beta/models, GET|POST /__script, GET|DELETE /__requests, GET /__health.`,
        code: "unknown_route",
      });
    }
    if (handler === "bad-method") {
      return sendError(res, 405, {
        message: `fake-llm: ${method} is not supported on ${pathname}.`,
        code: "method_not_allowed",
      });
    }
    Promise.resolve()
      .then(() => handler(req, res, ctx))
      .catch((err: unknown) => {
        if (res.headersSent) return void res.destroy();
        if (err instanceof BodyError) return sendError(res, err.status, { message: err.message });
        sendError(res, 500, { message: `fake-llm internal error: ${(err as Error).message}` });
      });
  };
}
