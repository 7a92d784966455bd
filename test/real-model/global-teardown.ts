import temporalTeardown from '../helpers/global-teardown';
import { REAL_MODEL_STATE_KEY, type RealModelState } from './real-model-env';

export default async function globalTeardown(): Promise<void> {
  const globals = globalThis as Record<string, unknown>;
  await (globals[REAL_MODEL_STATE_KEY] as RealModelState | undefined)?.stop();
  delete globals[REAL_MODEL_STATE_KEY];
  await temporalTeardown();
}
