import type { ScriptFunction } from '../testing/scripted-model-types';
import { RESEARCH_TOPICS } from './research-notes';

/** The research lead: one researcher per topic in one reply (they run in parallel), then the brief. */
export const researchLeadScript: ScriptFunction = (_request, info) => {
  if (info.toolResults.length === 0) {
    return { toolCalls: RESEARCH_TOPICS.map((topic) => ({ name: 'researcher', arguments: { task: topic } })) };
  }
  const findings = info.toolResults.map((result, i) => `- ${RESEARCH_TOPICS[i]}: ${result.content}`);
  return `Brief: agents belong in durable workflows.\n${findings.join('\n')}`;
};

/** A researcher: read the notes; on human approval also ask the expert (which waits for a person); then answer. */
export const researcherScript: ScriptFunction = (request, info) => {
  const topic = String(request.messages.find((m) => m.role === 'user')?.content ?? '');
  const results = request.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
  if (results.length === 0) return { toolCalls: [{ name: 'read_notes', arguments: { topic } }] };
  if (topic === 'human approval' && results.length === 1) {
    return { toolCalls: [{ name: 'ask_expert', arguments: { question: 'Do approvals really wait for days?' } }] };
  }
  return `${results[0]!.split('. ')[0]}.${results[1] ? ` ${results[1]}` : ''}`;
};
