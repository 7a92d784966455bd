import type { ScriptFunction } from '../testing/scripted-model-types';
import { coderScript } from './coder-script';
import { demoScript } from './demo-script';
import { researcherScript, researchLeadScript } from './research-script';

/** One scripted model for every demo agent: the system prompt picks the agent's script. */
export const demoModelScript: ScriptFunction = (request, info) => {
  const system = request.messages.find((m) => m.role === 'system');
  const instructions = typeof system?.content === 'string' ? system.content : '';
  if (instructions.includes('coding agent')) return coderScript(request, info);
  if (instructions.startsWith('You are a research lead')) return researchLeadScript(request, info);
  if (instructions.startsWith('You are a researcher')) return researcherScript(request, info);
  return demoScript(request, info);
};
