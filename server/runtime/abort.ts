/** True for the error an aborted operation throws (one definition, shared with the LLM client). */
export { isAbortError } from "./llm/errors";
