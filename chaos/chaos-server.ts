import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { findFreePorts, startDevServer } = require('../scripts/dev-server.cjs') as typeof import('../scripts/dev-server.cjs');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { findTemporalCli } = require('../scripts/temporal-cli.cjs') as typeof import('../scripts/temporal-cli.cjs');

type DevServer = Awaited<ReturnType<typeof startDevServer>>;

/** The chaos run's own dev server (its settings are the project's: scripts/dev-server.cjs), SIGKILLed and restarted on its database. */
export class ChaosServer {
  restarts = 0;
  private server: DevServer | undefined;

  private constructor(
    private readonly cliPath: string,
    private readonly port: number,
    private readonly dbFile: string,
  ) {}

  static async start(dir: string, log: (line: string) => void): Promise<ChaosServer> {
    const cliPath = findTemporalCli({ install: true, log });
    if (!cliPath) throw new Error('no Temporal CLI: run `node scripts/temporal-cli.cjs` to install the pinned one');
    mkdirSync(dir, { recursive: true });
    const [port] = await findFreePorts(1);
    const server = new ChaosServer(cliPath, port!, join(dir, 'temporal.sqlite'));
    await server.launch();
    return server;
  }

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** SIGKILL (no shutdown at all), a pause, then a new server process on the same database file. */
  async killAndRestart(downMs: number): Promise<void> {
    const pid = this.server?.pid;
    if (pid === undefined) return;
    process.kill(pid, 'SIGKILL');
    await this.server!.stop().catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, downMs));
    await this.launch();
    this.restarts += 1;
  }

  async stop(): Promise<void> {
    await this.server?.stop();
    this.server = undefined;
  }

  private async launch(): Promise<void> {
    this.server = await startDevServer({ cliPath: this.cliPath, port: this.port, dbFile: this.dbFile, headless: true });
  }
}
