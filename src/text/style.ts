import { createColors } from 'picocolors';

export type Style = ReturnType<typeof createColors>;

/** Colour only for a terminal, and never when NO_COLOR is set (https://no-color.org). */
export function colorEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

export function styleFor(enabled: boolean): Style {
  return createColors(enabled);
}
