import { appendFileSync, existsSync, mkdirSync, openSync, closeSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The effects of the chaos agent's tool, shared by every worker process through a folder: an
 * effect is a file created with O_EXCL under the call's idempotency key, so it is applied at most
 * once however often the call runs; every execution is one appended line.
 */
export class EffectLedger {
  constructor(readonly dir: string) {
    mkdirSync(join(dir, 'effects'), { recursive: true });
  }

  /** Applies the effect of this key unless it was applied before; true when this execution applied it. */
  apply(key: string, step: number): boolean {
    appendFileSync(join(this.dir, 'executions.log'), `${key}\n`);
    try {
      // A call's key always comes with the same step (its input is recorded), so the name stays unique per key.
      closeSync(openSync(join(this.dir, 'effects', `${step}@${encodeURIComponent(key)}`), 'wx'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
    return true;
  }

  /** The applied effects: each call's key, with its step. */
  effects(): Map<string, number> {
    const applied = new Map<string, number>();
    for (const name of readdirSync(join(this.dir, 'effects'))) {
      const at = name.indexOf('@');
      applied.set(decodeURIComponent(name.slice(at + 1)), Number(name.slice(0, at)));
    }
    return applied;
  }

  executions(): number {
    const file = join(this.dir, 'executions.log');
    return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0;
  }
}
