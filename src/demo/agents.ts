import { resolve } from 'node:path';
import type { AgentDefinition } from '../toolkit/define-agent';
import { coderAgent } from './coder-agent';
import { ecommerceAgent } from './ecommerce-agent';
import { researchLeadAgent } from './research-agents';

/** The agents `npm run worker` and `npm start` serve (the research lead brings its researcher); the coder works in `workspace`. */
export function demoAgents(options: { workspace: string }): AgentDefinition[] {
  return [ecommerceAgent, coderAgent({ workspace: resolve(options.workspace) }), researchLeadAgent];
}
