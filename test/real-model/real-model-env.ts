/** What the real-model tier's global setup passes to its tests. */
export const REAL_MODEL_ENV = {
  baseURL: 'REAL_MODEL_BASE_URL',
  model: 'REAL_MODEL_NAME',
  /** Set, with the reason, when the model or its server could not be had here. */
  skip: 'REAL_MODEL_SKIP',
} as const;

export const REAL_MODEL_STATE_KEY = '__durableAgentRealModel';

export interface RealModelState {
  stop(): Promise<void>;
}

/** `describe`, or `describe.skip` with the reason printed once, when the tier has no model. */
export function describeWithRealModel(name: string, body: () => void): void {
  const skip = process.env[REAL_MODEL_ENV.skip];
  if (skip) console.log(`${name}: skipped (${skip})`);
  (skip ? describe.skip : describe)(name, body);
}
