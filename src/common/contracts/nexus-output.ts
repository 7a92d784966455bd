/** A nexusTool's operation result, checked on a worker against the tool's `output` schema. */
export interface CheckNexusOutputInput {
  agent: string;
  tool: string;
  output: unknown;
}

/** `ok` with the value the schema parsed (its defaults, transforms), or the problems the model reads. */
export type CheckedNexusOutput = { ok: true; value: unknown } | { ok: false; problems: string[] };
