export { beginActivationSpan, beginToolSpan, endActivationSpan, logContext, recordLlmAttempt, traceParentFor, type ToolSpan } from "./spans";
export { contextFromTraceParent, formatTraceParent } from "./trace-parent";
