/** Workflow time: deterministic inside the sandbox, where Date follows the workflow's clock. */
export function nowIso(): string {
  return new Date().toISOString();
}

export function nowMs(): number {
  return new Date().getTime();
}
