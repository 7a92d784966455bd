import type { ScriptFunction } from '../testing/scripted-model-types';
import { coderScript } from './coder-script';
import { demoScript } from './demo-script';

/** One scripted model for every demo agent: the coder's system prompt picks the coder's script. */
export const demoModelScript: ScriptFunction = (request, info) => {
  const system = request.messages.find((m) => m.role === 'system');
  const isCoder = typeof system?.content === 'string' && system.content.includes('coding agent');
  return isCoder ? coderScript(request, info) : demoScript(request, info);
};
