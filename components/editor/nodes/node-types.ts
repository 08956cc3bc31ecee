import type { NodeTypes } from "@xyflow/react";
import { AgentNode } from "./agent-node";
import { FileNode, HookNode } from "./misc-nodes";
import { ModelNode } from "./model-node";
import { PromptNode } from "./prompt-node";
import { ToolNode } from "./tool-node";

export const nodeTypes: NodeTypes = { agent: AgentNode, prompt: PromptNode, model: ModelNode, tool: ToolNode, hook: HookNode, file: FileNode };
