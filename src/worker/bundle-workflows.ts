import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Logger } from '@temporalio/common';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { agentBundleOptions } from './agent-bundle-options';

export interface BundleAgentWorkflowsOptions {
  /** Where the bundle is written; missing folders are created. */
  outFile: string;
  logger?: Logger;
  /** Your workflow interceptor modules (paths), bundled with the agent workflow and after its own (tracing). */
  workflowInterceptorModules?: string[];
  /**
   * Bundle the failure converter of the encrypted data converter, so failures raised by the
   * workflow code keep their messages in encrypted attributes too. Use it when the workers encrypt
   * payloads (AGENT_ENCRYPTION_KEY_FILE / AGENT_ENCRYPTION_KEYS); without keys it only hides
   * failure messages from the Web UI.
   */
  encryptedFailures?: boolean;
}

export interface AgentWorkflowsBundle {
  /** Absolute path of the file written: pass it as createWorker({ workflowBundle: { codePath } }). */
  codePath: string;
  bytes: number;
}

/**
 * Bundles the agent workflow code ahead of time, so workers start without webpack. The bundle is
 * this version's workflow code: build it again whenever durable-agent is upgraded.
 */
export async function bundleAgentWorkflows(options: BundleAgentWorkflowsOptions): Promise<AgentWorkflowsBundle> {
  const { code } = await bundleWorkflowCode({
    ...agentBundleOptions(options.workflowInterceptorModules),
    logger: options.logger ?? new DefaultLogger('WARN'),
    ...(options.encryptedFailures ? { failureConverterPath: require.resolve('../codec/encrypted-failure-converter') } : {}),
  });
  const codePath = resolve(options.outFile);
  mkdirSync(dirname(codePath), { recursive: true });
  // Written next to the target and renamed, so a worker starting meanwhile never reads half a bundle.
  const partial = `${codePath}.${process.pid}.partial`;
  writeFileSync(partial, code);
  renameSync(partial, codePath);
  return { codePath, bytes: Buffer.byteLength(code) };
}
