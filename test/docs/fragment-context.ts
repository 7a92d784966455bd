/**
 * What a `<!-- fragment: a, b -->` block of the docs may use without defining it: each name the
 * marker lists is declared, with this type, around the block before it is compiled. A fragment
 * that uses a name it does not list fails to compile, like a pasted snippet would.
 */
export const FRAGMENT_CONTEXT: Record<string, string> = {
  agents: "declare const agents: import('durable-agent').AgentDefinition[];",
  support: "declare const support: import('durable-agent').AgentDefinition;",
  researcher: "declare const researcher: import('durable-agent').AgentDefinition;",
  tools: "declare const tools: import('durable-agent').AnyTool[];",
  instructions: 'declare const instructions: string;',
  client: "declare const client: import('durable-agent').AgentClient;",
  run: "declare const run: import('durable-agent').AgentRun;",
  callId: 'declare const callId: string;',
  keys: "declare const keys: import('durable-agent/codec').EncryptionKeySet;",
  /** A run's history as JSON, e.g. from `temporal workflow show --output json`. */
  history: 'declare const history: unknown;',
  workflowBundle: "declare const workflowBundle: { codePath: string };",
  nativeConnection: "declare const nativeConnection: import('@temporalio/worker').NativeConnection;",
};
