import type { ScriptFunction } from '../testing/scripted-model-types';

const BUGGY_LOOP = 'for (let i = 1; i < values.length; i++)';
const FIXED_LOOP = 'for (let i = 0; i < values.length; i++)';

/** The coder demo's scripted model: read the file, fix the off-by-one, run the tests, report. */
export const coderScript: ScriptFunction = (_request, info) => {
  const last = info.toolResults[0];
  switch (info.turnIndex) {
    case 0:
      return { toolCalls: [{ name: 'read_file', arguments: { path: 'coder-demo/sum.js' } }] };
    case 1:
      return {
        text: 'The loop starts at index 1, so the first value is skipped. I will start it at 0.',
        toolCalls: [
          { name: 'edit_file', arguments: { path: 'coder-demo/sum.js', old_string: BUGGY_LOOP, new_string: FIXED_LOOP } },
        ],
      };
    case 2:
      if (last && last.content.startsWith('Permission denied')) return `I did not change the file: ${last.content}`;
      return { toolCalls: [{ name: 'bash', arguments: { command: 'node coder-demo/sum.test.js' } }] };
    default:
      return `Fixed the off-by-one in coder-demo/sum.js (the loop skipped the first value). Test run:\n${last?.content ?? ''}`;
  }
};
