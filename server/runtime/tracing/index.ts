export { beginActivationSpan, beginToolSpan, endActivationSpan, recordLlmAttempt, traceParentFor, type ToolSpan } from "./spans";
export { contextFromTraceParent, formatTraceParent } from "./trace-parent";
