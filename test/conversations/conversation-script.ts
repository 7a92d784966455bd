import type { ScriptFunction } from '../../src/testing/scripted-model-types';

/** The scripted model of the conversation tests: it answers by the user's last message. */
export const conversationScript: ScriptFunction = (request, info) => {
  const text = info.lastUserText;
  if (text.startsWith('Where is ')) {
    const order = text.slice('Where is '.length).replace('?', '');
    if (info.toolResults.length === 0) return { toolCalls: [{ name: 'lookup', arguments: { key: order } }] };
    return { text: `${order}: ${info.toolResults[0]!.content}` };
  }
  if (text === 'What did the lookup say?') {
    const earlier = request.messages.find((message) => message.role === 'tool');
    return { text: `Earlier the lookup said: ${earlier ? String(earlier.content) : 'nothing'}` };
  }
  if (text.startsWith('Refund ')) {
    if (info.toolResults.length === 0) return { toolCalls: [{ name: 'refund', arguments: { order_id: text.slice('Refund '.length), amount: 5 } }] };
    return { text: `Refund: ${info.toolResults[0]!.content}` };
  }
  if (text.startsWith('Ship to ')) {
    if (info.toolResults.length === 0) return { toolCalls: [{ name: 'ship_parcel', arguments: { address: text.slice('Ship to '.length) } }] };
    return { text: `Shipped: ${info.toolResults[0]!.content}` };
  }
  return { text: `echo: ${text}` };
};
