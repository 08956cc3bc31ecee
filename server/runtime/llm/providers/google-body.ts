/**
 * A `ProviderRequest` as `@google/genai` parameters (`models.generateContentStream`): system messages joined into
 * `systemInstruction`; users as `user` contents (images as `inlineData` from a data URL, else `fileData`); assistants as
 * `model` contents whose parts carry their thought signatures back (a signature with an `id` on that function call's
 * part, one without on the text part), as Gemini requires; tool results as `functionResponse` parts of one `user`
 * content; tools as function declarations with their JSON Schema; `reasoning` as a `thinkingConfig` (a budget of
 * `maxTokens`, else low 1024, medium 8192, high 24576 tokens; thoughts included unless excluded); `providerTools` as
 * `googleSearch` and `codeExecution`. The SDK turns these
 * into the wire body; the request log shows them as given to it.
 */
import type { Content, GenerateContentConfig, Part } from "@google/genai";
import type { ProviderMessageContent, ProviderReasoningDetail, ProviderRequest } from "@/server/spec";

export const GOOGLE_FORMAT = "google-gemini-v1";
const BUDGET = { low: 1024, medium: 8192, high: 24576 } as const;
const MODE = { auto: "AUTO", none: "NONE", required: "ANY" } as const;
/** Config fields provider options cannot replace (the conversation, the tools, the transport). */
const PROTECTED = new Set(["systemInstruction", "tools", "abortSignal", "httpOptions", "automaticContinuation"]);

export interface GoogleParams {
  model: string;
  contents: Content[];
  config: GenerateContentConfig;
}

export function toGoogleParams(request: ProviderRequest): GoogleParams {
  const system: string[] = [];
  const contents: Content[] = [];
  const toolNames = new Map<string, string>();
  const push = (role: "user" | "model", parts: Part[]) => {
    const last = contents[contents.length - 1];
    // Consecutive contents of one role (tool results, a note after them) become one, as the API expects.
    if (last && last.role === role) last.parts!.push(...parts);
    else contents.push({ role, parts });
  };
  for (const m of request.messages) {
    if (m.role === "system") system.push(m.content);
    else if (m.role === "user") push("user", typeof m.content === "string" ? [{ text: m.content }] : m.content.map(userPart));
    else if (m.role === "tool") {
      const name = m.toolName ?? toolNames.get(m.toolCallId) ?? "";
      push("user", [{ functionResponse: { id: m.toolCallId, name, response: { result: m.content } } }]);
    } else {
      const signatures = (m.reasoningDetails ?? []).filter((d) => d.format === GOOGLE_FORMAT && (d.signature ?? d.data));
      const parts: Part[] = [];
      const textSignature = signatureOf(signatures.find((d) => d.id === undefined));
      if (m.content || textSignature) parts.push({ text: m.content ?? "", ...(textSignature ? { thoughtSignature: textSignature } : {}) });
      for (const c of m.toolCalls ?? []) {
        toolNames.set(c.id, c.name);
        const signature = signatureOf(signatures.find((d) => d.id === c.id));
        parts.push({ functionCall: { id: c.id, name: c.name, args: parseArgs(c.arguments) }, ...(signature ? { thoughtSignature: signature } : {}) });
      }
      if (parts.length > 0) push("model", parts);
    }
  }
  const config: GenerateContentConfig = {};
  if (system.length > 0) config.systemInstruction = system.join("\n\n");
  const tools: NonNullable<GenerateContentConfig["tools"]> = [];
  if (request.tools && request.tools.length > 0) {
    tools.push({ functionDeclarations: request.tools.map((t) => ({ name: t.name, description: t.description, parametersJsonSchema: t.parameters })) });
    if (request.toolChoice) config.toolConfig = { functionCallingConfig: { mode: MODE[request.toolChoice] as never } };
  }
  // Tools Gemini runs itself: Google Search grounding and code execution.
  for (const name of request.providerTools ?? []) tools.push(name === "web_search" ? { googleSearch: {} } : { codeExecution: {} });
  if (tools.length > 0) config.tools = tools;
  if (request.maxOutputTokens !== undefined) config.maxOutputTokens = request.maxOutputTokens;
  const thinking = thinkingConfig(request);
  if (thinking) config.thinkingConfig = thinking;
  // Provider options are generation config fields (temperature, topK, safetySettings, …).
  for (const [key, value] of Object.entries(request.providerOptions ?? {})) {
    if (!PROTECTED.has(key)) (config as Record<string, unknown>)[key] = value;
  }
  return { model: request.model, contents, config };
}

function userPart(part: ProviderMessageContent): Part {
  if (part.type === "text") return { text: part.text };
  const data = /^data:([^;,]+);base64,(.*)$/s.exec(part.url);
  if (data) return { inlineData: { mimeType: data[1]!, data: data[2]! } };
  return { fileData: { fileUri: part.url, mimeType: part.mediaType ?? mimeFromUrl(part.url) } };
}

function mimeFromUrl(url: string): string {
  const ext = /\.([a-z0-9]+)(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase();
  if (ext === "png" || ext === "webp" || ext === "gif") return `image/${ext}`;
  return "image/jpeg";
}

const signatureOf = (d: ProviderReasoningDetail | undefined): string | undefined => d?.signature ?? d?.data;

function parseArgs(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text) as unknown;
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function thinkingConfig(request: ProviderRequest): GenerateContentConfig["thinkingConfig"] | null {
  const r = request.reasoning;
  if (!r) return null;
  const includeThoughts = !(r.exclude === true || r.include === false);
  const budget = typeof r.maxTokens === "number" ? r.maxTokens : r.effort ? BUDGET[r.effort] : undefined;
  if (budget === undefined && includeThoughts === false) return null;
  return { includeThoughts, ...(budget !== undefined ? { thinkingBudget: budget } : {}) };
}
