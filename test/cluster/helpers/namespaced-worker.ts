import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createNetNamespace, type NetNamespace } from './netns';
import { startTcpForwarder, type TcpForwarder } from './tcp-forwarder';

const ROOT = join(__dirname, '..', '..', '..');
const SCRIPT = join(__dirname, 'ledger-worker-process.ts');

/** One step execution of the namespaced worker, as it reported it. */
export interface StepExecution {
  key: string;
  step: number;
  /** False when the ledger had the effect already (a re-execution). */
  applied: boolean;
  at: number;
}

/**
 * A second worker of the scenario's ledger agents, in a process inside a network namespace of its
 * own: it reaches the cluster's frontend and the scripted model server only through TCP
 * forwarders on the host's end of the veth, so `ns.cut()` partitions it from both.
 */
export interface NamespacedWorker {
  ns: NetNamespace;
  pid: number;
  identity: string;
  frontend: TcpForwarder;
  model: TcpForwarder;
  executions: StepExecution[];
  /** The worker's stderr, last 8 KB (its core logs errors only). */
  stderrTail(): string;
  /** SIGKILLs the worker by its PID, closes the forwarders, deletes the namespace and the veth. Safe to call twice. */
  stop(): Promise<void>;
}

export interface NamespacedWorkerOptions {
  /** 127.0.0.1:<port> of the cluster's frontend. */
  frontendAddress: string;
  /** The scripted model server's base URL (http://127.0.0.1:<port>/v1). */
  modelBaseURL: string;
  taskQueue: string;
  ledgerDir: string;
  workflowBundle: string;
  namespace?: string;
}

function hostPort(address: string): { host: string; port: number } {
  const at = address.lastIndexOf(':');
  return { host: address.slice(0, at), port: Number(address.slice(at + 1)) };
}

export async function startNamespacedWorker(options: NamespacedWorkerOptions): Promise<NamespacedWorker> {
  const ns = createNetNamespace();
  const forwarders: TcpForwarder[] = [];
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    try {
      if (child?.pid && child.exitCode === null && child.signalCode === null) {
        process.kill(child.pid, 'SIGKILL');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      }
    } finally {
      await Promise.all(forwarders.map((f) => f.close()));
      ns.remove();
    }
  };
  try {
    const frontend = await startTcpForwarder({ host: ns.hostAddress }, hostPort(options.frontendAddress));
    forwarders.push(frontend);
    const modelUrl = new URL(options.modelBaseURL);
    const model = await startTcpForwarder({ host: ns.hostAddress }, { host: modelUrl.hostname, port: Number(modelUrl.port) });
    forwarders.push(model);
    modelUrl.hostname = ns.hostAddress;
    modelUrl.port = String(model.port);

    // `ip netns exec` enters the namespace and execs node: the child's PID is the worker's.
    child = spawn('ip', ['netns', 'exec', ns.name, process.execPath, '--import', 'tsx', SCRIPT], {
      cwd: ROOT,
      env: {
        ...process.env,
        TEMPORAL_ADDRESS: frontend.address,
        TEMPORAL_NAMESPACE: options.namespace ?? 'default',
        MODEL_BASE_URL: modelUrl.toString().replace(/\/$/, ''),
        TASK_QUEUE: options.taskQueue,
        LEDGER_DIR: options.ledgerDir,
        WORKFLOW_BUNDLE: options.workflowBundle,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const proc = child;
    exited = new Promise((resolve) => proc.once('exit', () => resolve()));
    let stderr = '';
    proc.stderr!.on('data', (data: Buffer) => {
      stderr = (stderr + data.toString()).slice(-8192);
    });
    const executions: StepExecution[] = [];
    const identity = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the namespaced worker was not ready within 90 s; stderr:\n${stderr}`)), 90_000);
      createInterface({ input: proc.stdout! }).on('line', (line) => {
        let message: { event?: string; identity?: string } & Partial<StepExecution>;
        try {
          message = JSON.parse(line);
        } catch {
          return;
        }
        if (message.event === 'ready') {
          clearTimeout(timer);
          resolve(message.identity!);
        } else if (message.event === 'apply') {
          executions.push({ key: message.key!, step: message.step!, applied: message.applied!, at: message.at! });
        }
      });
      proc.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`the namespaced worker exited before it was ready (${code ?? signal}); stderr:\n${stderr}`));
      });
    });
    return { ns, pid: proc.pid!, identity, frontend, model, executions, stderrTail: () => stderr, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
