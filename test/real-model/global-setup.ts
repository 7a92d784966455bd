import temporalSetup from '../helpers/global-setup';
import { REAL_MODEL_ENV, type RealModelState, REAL_MODEL_STATE_KEY } from './real-model-env';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const localModel = require('../../scripts/local-model.cjs') as typeof import('../../scripts/local-model.cjs');

const log = (message: string) => process.stderr.write(`[real-model] ${message}\n`);

/**
 * The dev server (as every tier has it), then the model: built and fetched when missing, served on
 * loopback. What cannot be had (no compiler, no registry) is a skip line with the reason, never a
 * failure of the tier: the tests read it from REAL_MODEL_SKIP.
 */
export default async function globalSetup(): Promise<void> {
  await temporalSetup();
  const model = process.env.REAL_MODEL ?? '0.5b';
  const began = Date.now();
  try {
    const served = await localModel.startLocalModel({ model });
    (globalThis as Record<string, unknown>)[REAL_MODEL_STATE_KEY] = { stop: served.stop } satisfies RealModelState;
    process.env[REAL_MODEL_ENV.baseURL] = served.baseURL;
    process.env[REAL_MODEL_ENV.model] = served.model;
    log(`${served.model} on ${served.baseURL} (llama-server pid ${served.pid}), ready ${Math.round((Date.now() - began) / 1000)} s after the tier started`);
  } catch (error) {
    process.env[REAL_MODEL_ENV.skip] = (error as Error).message.split('\n')[0]!;
    log(`real-model tests skipped: ${process.env[REAL_MODEL_ENV.skip]}`);
  }
}
