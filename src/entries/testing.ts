// durable-agent/testing: the scripted OpenAI-compatible model server, for tests of your agents.
export { startScriptedModelServer } from '../testing/scripted-model-server';
export type { ModelScript, ScriptedModelServer, ScriptedModelServerOptions, ScriptedTurn, ScriptedTurnInfo, ScriptFunction } from '../testing/scripted-model-types';
export { startTestTemporal, type TestTemporal, type TestTemporalOptions } from '../testing/test-temporal';
