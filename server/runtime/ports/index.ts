export * from "./records";
export * from "./stores";
export * from "./event-bus";
export * from "./mcp";
