import { durationProblem } from '../common/duration';

export interface StepSettings {
  timeout?: unknown;
  heartbeatTimeout?: unknown;
  totalTimeout?: unknown;
  maximumAttempts?: unknown;
  initialInterval?: unknown;
  maximumInterval?: unknown;
  backoffCoefficient?: unknown;
}

/**
 * What is wrong with a tool's or a model's timing settings, checked when the agent is defined:
 * in the workflow, a duration it cannot read would fail the run at its first call.
 */
export function stepSettingsProblems(settings: StepSettings, prefix = ''): string[] {
  const problems = (['timeout', 'heartbeatTimeout', 'totalTimeout', 'initialInterval', 'maximumInterval'] as const).map((name) =>
    durationProblem(`${prefix}${name}`, settings[name]),
  );
  const { maximumAttempts, backoffCoefficient } = settings;
  if (maximumAttempts !== undefined && (!Number.isInteger(maximumAttempts) || (maximumAttempts as number) < 1)) {
    problems.push(`${prefix}maximumAttempts must be a positive integer, not ${JSON.stringify(maximumAttempts)}`);
  }
  if (backoffCoefficient !== undefined && (typeof backoffCoefficient !== 'number' || !(backoffCoefficient >= 1))) {
    problems.push(`${prefix}backoffCoefficient must be a number of at least 1, not ${JSON.stringify(backoffCoefficient)}`);
  }
  return problems.filter((problem): problem is string => problem !== undefined);
}
