/** What one part of a command line amounts to, before it becomes a permission decision. */
export type Verdict =
  | { level: 'allow'; reason: string }
  /** Nothing to say: the rules decide. */
  | { level: 'pass' }
  | { level: 'ask'; reason: string; safety: boolean };

const RANK = { allow: 0, pass: 1, ask: 2 } as const;

function rank(verdict: Verdict): number {
  return RANK[verdict.level] + (verdict.level === 'ask' && verdict.safety ? 1 : 0);
}

export const PASS: Verdict = { level: 'pass' };

export function allow(reason: string): Verdict {
  return { level: 'allow', reason };
}

export function askSafety(reason: string): Verdict {
  return { level: 'ask', reason, safety: true };
}

/**
 * The strictest of several verdicts (the first one among equals; when all allow, their
 * reasons together); allow when there are none.
 */
export function strictest(verdicts: Verdict[], whenEmpty: Verdict = allow('nothing to run')): Verdict {
  let worst: Verdict | undefined;
  for (const verdict of verdicts) if (!worst || rank(verdict) > rank(worst)) worst = verdict;
  if (worst?.level === 'allow') {
    const reasons = [...new Set(verdicts.map((v) => (v.level === 'allow' ? v.reason : '')))];
    return allow(reasons.join('; '));
  }
  return worst ?? whenEmpty;
}
