/** The research demo's library: what `read_notes` finds per topic. */
export const RESEARCH_NOTES: Record<string, string> = {
  'durable execution':
    'A durable execution engine records every step of a program in an event history. When a process dies, another one replays the history and carries on from the last recorded step, so long-running work survives crashes and deploys.',
  'child workflows':
    'A child workflow is a workflow started by another one. It has its own history and limits, shows under its parent in the Web UI, and its parent can wait for its result, cancel it, or let it outlive the parent.',
  'human approval':
    'An approval step parks the program until a person answers. With durable execution the wait holds no process: it is a condition in history, so the answer may come minutes or days later from any client.',
};

export const RESEARCH_TOPICS = Object.keys(RESEARCH_NOTES);
