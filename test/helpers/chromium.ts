import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { chromium, type BrowserContext } from 'playwright-core';

const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

function onPath(name: string): string | undefined {
  try {
    return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** PLAYWRIGHT_CHROMIUM, /usr/bin/chromium, or chromium / chromium-browser on the PATH; the reason when none is found. */
export function findChromium(): { path: string } | { missing: string } {
  const given = process.env.PLAYWRIGHT_CHROMIUM;
  if (given) return existsSync(given) ? { path: given } : { missing: `PLAYWRIGHT_CHROMIUM=${given} does not exist` };
  if (existsSync('/usr/bin/chromium')) return { path: '/usr/bin/chromium' };
  const found = onPath('chromium') ?? onPath('chromium-browser');
  return found ? { path: found } : { missing: 'no Chromium found (set PLAYWRIGHT_CHROMIUM, or apt-get install chromium)' };
}

/** `describe`, or `describe.skip` with the reason printed, when there is no Chromium to drive. */
export function describeWithChromium(name: string, body: () => void): void {
  const found = findChromium();
  if ('missing' in found) {
    console.log(`[browser tests] skipped '${name}': ${found.missing}`);
    describe.skip(name, body);
  } else describe(name, body);
}

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** A headless Chromium of its own (a fresh profile), as a person's browser: cookies and all. */
export async function launchBrowser(options: { extraHTTPHeaders?: Record<string, string> } = {}): Promise<Browser> {
  const found = findChromium();
  if ('missing' in found) throw new Error(found.missing);
  const profile = mkdtempSync(join(tmpdir(), 'durable-agent-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: found.path,
    headless: true,
    args: ARGS,
    viewport: { width: 1200, height: 900 },
    ...(options.extraHTTPHeaders ? { extraHTTPHeaders: options.extraHTTPHeaders } : {}),
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
