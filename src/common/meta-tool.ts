import type { ToolSpec } from '../common/tools';

export const META_TOOL_NAME = 'reset_equipped_tools';

/** The opt-in tool that lets the model switch tool groups; the workflow itself answers it. */
export function metaToolSpec(groupNames: string[]): ToolSpec {
  return {
    name: META_TOOL_NAME,
    description:
      'Choose which tool groups are active. The list replaces the active set: groups not listed are turned off. ' +
      `Available groups: ${groupNames.join(', ')}.`,
    parameters: {
      type: 'object',
      properties: {
        to_activate: { type: 'array', items: { type: 'string', enum: groupNames }, description: 'Groups to activate.' },
      },
      required: ['to_activate'],
      additionalProperties: false,
    },
    readOnly: true,
    concurrencySafe: false,
    external: false,
    source: { kind: 'builtin' },
    permission: 'allow',
  };
}
