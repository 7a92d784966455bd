import type {
  ModelScript,
  ScriptedRequest,
  ScriptedToolCall,
  ScriptedTurn,
  ScriptedTurnInfo,
  ScriptedTurnSpec,
} from './scripted-model-types';

/** A turn ready to be sent: tool calls have ids (unless scripted without) and raw argument strings. */
export interface ResolvedTurn {
  text: string;
  toolCalls: Array<{ id: string | undefined; name: string; arguments: string }>;
  spec: ScriptedTurnSpec;
}

export function argumentsText(call: ScriptedToolCall): string {
  if (call.arguments === undefined) return '{}';
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
}

export function normalizeTurn(turn: ScriptedTurn): ScriptedTurnSpec {
  return typeof turn === 'string' ? { text: turn } : turn;
}

/** The turn for this request, or undefined when an array script has no turn at this index. */
export async function pickTurn(
  script: ModelScript,
  request: ScriptedRequest,
  info: ScriptedTurnInfo,
): Promise<ScriptedTurnSpec | undefined> {
  if (typeof script === 'function') return normalizeTurn(await script(request, info));
  const turn = script[info.turnIndex];
  return turn === undefined ? undefined : normalizeTurn(turn);
}

export function resolveTurn(spec: ScriptedTurnSpec, turnIndex: number): ResolvedTurn {
  return {
    text: spec.text ?? '',
    toolCalls: (spec.toolCalls ?? []).map((call, position) => ({
      id: call.id === null ? undefined : (call.id ?? `call_${turnIndex}_${position}`),
      name: call.name,
      arguments: argumentsText(call),
    })),
    spec,
  };
}

export function finishReasonOf(turn: ResolvedTurn): string {
  return turn.spec.finishReason ?? (turn.toolCalls.length > 0 ? 'tool_calls' : 'stop');
}
