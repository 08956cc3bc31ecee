/** Runtime errors carry a `code`; server/api maps codes to HTTP statuses in one place. */

export class RuntimeError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** A definition is missing or invalid (names the definition and the fix). */
export class DefinitionError extends RuntimeError {
  constructor(message: string, details?: unknown) {
    super("DEFINITION_ERROR", message, details);
  }
}

/** The model answered something the runtime cannot use (e.g. unparseable tool arguments). */
export class ModelBehaviorError extends RuntimeError {
  constructor(message: string, details?: unknown) {
    super("MODEL_BEHAVIOR_ERROR", message, details);
  }
}

/** A tool failed; becomes a tool error message the model sees. */
export class ToolExecutionError extends RuntimeError {
  constructor(message: string, details?: unknown) {
    super("TOOL_EXECUTION_ERROR", message, details);
  }
}

export class SafetyLimitError extends RuntimeError {
  constructor(message: string, details?: unknown) {
    super("SAFETY_LIMIT", message, details);
  }
}

export class NotFoundError extends RuntimeError {
  constructor(message: string, details?: unknown) {
    super("NOT_FOUND", message, details);
  }
}

/** The request conflicts with the thread's state (e.g. a message to a terminated thread). */
export class ConflictError extends RuntimeError {
  constructor(message: string, details?: unknown) {
    super("CONFLICT", message, details);
  }
}

/**
 * A transaction committed nothing and its caller runs it again: an optimistic one (`TransactionOptions.optimistic`)
 * found that a thread it took as this process last saw it had changed, or the database ended a `once` one (a
 * deadlock; `TransactionOptions.once`).
 */
export class StaleThreadError extends RuntimeError {
  constructor(message: string) {
    super("CONFLICT", message);
  }
}

/** Input that fails validation (field path in `details`). */
export class ValidationError extends RuntimeError {
  constructor(message: string, details?: unknown) {
    super("VALIDATION_ERROR", message, details);
  }
}
