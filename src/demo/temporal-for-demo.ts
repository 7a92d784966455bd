import { join } from 'node:path';
import { localTemporal } from '../cli/dev/local-temporal';

const ROOT = join(__dirname, '..', '..');

export interface DemoTemporal {
  address: string;
  uiUrl: string;
  /** Stops the server if the demo started it. */
  stop(): Promise<void>;
}

/**
 * The server `npm start` runs on: the configured one, one already on 127.0.0.1:7233, or a dev
 * server it starts (state in .temporal/, the CLI in .tools/); without a CLI, the dev server
 * @temporalio/testing downloads.
 */
export async function temporalForDemo(log: (message: string) => void): Promise<DemoTemporal> {
  const found = await localTemporal({ port: 7233, uiPort: 8233, dbFile: join(ROOT, '.temporal', 'dev.sqlite'), toolsRoot: ROOT, log });
  if (found) return found;
  log('No Temporal CLI could be found or installed; downloading a dev server through @temporalio/testing.');
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  const env = await TestWorkflowEnvironment.createLocal({ server: { ip: '127.0.0.1', port: 7233, uiPort: 8233 } });
  return { address: '127.0.0.1:7233', uiUrl: 'http://localhost:8233', stop: () => env.teardown() };
}
