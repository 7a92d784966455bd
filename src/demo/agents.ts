import type { AgentDefinition } from '../toolkit/define-agent';
import { ecommerceAgent } from './ecommerce-agent';

/** The agents `npm run worker` and `npm start` serve. */
export const demoAgents: AgentDefinition[] = [ecommerceAgent];
