import { z } from 'zod';
import { agentTool } from '../toolkit/agent-tool';
import { defineAgent } from '../toolkit/define-agent';
import { defineTool } from '../toolkit/define-tool';
import { RESEARCH_NOTES } from './research-notes';

export const RESEARCH_PROMPT = 'Write a short brief on why agents should run as durable workflows: cover durable execution, child workflows and human approval.';

/** Long enough that the three researchers visibly work side by side. */
const READING_MS = 1_500;

const readNotes = defineTool({
  name: 'read_notes',
  description: 'Read the library notes on a topic.',
  input: z.object({ topic: z.string().describe('The topic, e.g. "child workflows"') }),
  readOnly: true,
  execute: async ({ topic }) => {
    await new Promise((resolve) => setTimeout(resolve, READING_MS));
    return RESEARCH_NOTES[topic.toLowerCase()] ?? `The library has no notes on '${topic}'.`;
  },
});

const askExpert = defineTool({
  name: 'ask_expert',
  description: 'Send a question to an outside expert (costs money: a person approves it).',
  input: z.object({ question: z.string() }),
  permission: 'ask',
  execute: ({ question }) => `The expert answers "${question}": yes — approvals that wait for days are the normal case, not the exception.`,
});

/** Researches one topic; asking the expert waits for a person's approval, which reaches it through the lead's run. */
export const researcherAgent = defineAgent({
  name: 'researcher',
  instructions: 'You are a researcher. Read the notes on your topic and answer in two sentences.',
  tools: [readNotes, askExpert],
  maxIters: 5,
});

/** Sends one researcher per topic, all at once (child workflows), then writes the brief from their answers. */
export const researchLeadAgent = defineAgent({
  name: 'research',
  instructions: 'You are a research lead. Give each topic to a researcher, all at once, then write the brief from their answers.',
  tools: [agentTool(researcherAgent, { concurrencySafe: true, description: 'Give one topic to a researcher; it answers with what it found.' })],
  maxIters: 4,
});
