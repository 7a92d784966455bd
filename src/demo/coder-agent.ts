import { defineAgent, type AgentDefinition } from '../toolkit/define-agent';
import { harnessTools, type HarnessToolsOptions } from '../toolkit/tools/harness-tools';

export const CODER_PROMPT = 'The tests in coder-demo/ fail. Find the bug in coder-demo/sum.js, fix it, and run node coder-demo/sum.test.js.';

/**
 * A coding agent on a workspace folder. Reading is free; writing and editing files, and shell
 * commands that are not plainly read-only, wait for a person (the shell's own safety check
 * asks for dangerous commands in any case).
 */
export function coderAgent(options: HarnessToolsOptions): AgentDefinition {
  return defineAgent({
    name: 'coder',
    instructions:
      'You are a careful coding agent working in a project folder. Read before you edit, make the smallest change ' +
      'that fixes the problem, then run the tests and report what you changed and what the tests said.',
    tools: harnessTools(options),
    permissions: {
      mode: 'default',
      allow: ['read_file', 'list_files', 'glob_files', 'grep_files', 'skill'],
      ask: ['write_file', 'edit_file'],
      default: 'ask',
    },
    maxIters: 15,
  });
}
