// durable-agent/testing: the scripted OpenAI-compatible model server and a Temporal dev server of
// the test's own, for tests of your agents; the types of eval suites (`defineEvalSuite` and
// `defineEvalCase` are in the main entry) and of the eval's report (`durable-agent eval --json`).
export { startScriptedModelServer } from '../testing/scripted-model-server';
export type { ModelScript, ScriptedModelServer, ScriptedModelServerOptions, ScriptedTurn, ScriptedTurnInfo, ScriptFunction } from '../testing/scripted-model-types';
export { startTestTemporal, type TestTemporal, type TestTemporalOptions } from '../testing/test-temporal';
export type { EvalCaseInput, EvalSuiteInput, EvalToolStub } from '../eval/define-suite';
export type { ArgMatcher, ArgsMatcher } from '../eval/arg-matchers';
export type { EvalReport, EvalRunReport, EvalCaseSummary, ExpectationResult } from '../eval/eval-report';
