/**
 * The request log: every chat request, in memory and (optionally) as one JSON line per request in a file. The file is
 * truncated when the server starts and then only appended to (clearing the in-memory log leaves it alone), so it holds
 * every request this server received. `seq` keeps counting across clears.
 */
import fs from "node:fs";
import path from "node:path";
import type { IncomingHttpHeaders } from "node:http";
import type { ChatRequest } from "./chat-request";

export interface LoggedRequest {
  seq: number;
  /** ISO time the request arrived. */
  at: string;
  model: string;
  stream: boolean;
  messages: ChatRequest["messages"];
  tools: NonNullable<ChatRequest["tools"]> | null;
  tool_choice: unknown;
  parallel_tool_calls: boolean | null;
  /** Whether an Authorization header was sent; its value is never logged. */
  headers: { authorization: boolean };
  /** The full JSON body as received. */
  body: Record<string, unknown>;
  /** Index of the answering rule, or null when no rule matched. */
  matched: number | null;
}

export class RequestLog {
  private entries: LoggedRequest[] = [];
  private nextSeq = 1;

  constructor(private readonly file?: string) {
    if (file) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, "");
    }
  }

  /** Reserves the sequence number of the next request. */
  takeSeq(): number {
    return this.nextSeq++;
  }

  append(
    seq: number,
    body: Record<string, unknown>,
    request: ChatRequest,
    headers: IncomingHttpHeaders,
    matched: number | null,
    at = new Date(),
  ): LoggedRequest {
    const entry: LoggedRequest = {
      seq,
      at: at.toISOString(),
      model: request.model,
      stream: request.stream === true,
      messages: request.messages,
      tools: request.tools ?? null,
      tool_choice: request.tool_choice ?? null,
      parallel_tool_calls: request.parallel_tool_calls ?? null,
      headers: { authorization: typeof headers.authorization === "string" && headers.authorization !== "" },
      body,
      matched,
    };
    this.entries.push(entry);
    if (this.file) fs.appendFileSync(this.file, JSON.stringify(entry) + "\n");
    return entry;
  }

  list(): LoggedRequest[] {
    return [...this.entries];
  }

  clear(): void {
    this.entries = [];
  }
}
