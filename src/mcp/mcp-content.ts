import type { ContentBlock } from '../common/messages';
import type { RichToolResult } from '../toolkit/define-tool';
import type { McpCallResult } from './mcp-types';

type McpContent = McpCallResult['content'][number];

function toBlock(item: McpContent): ContentBlock {
  switch (item.type) {
    case 'text':
      return { type: 'text', text: item.text };
    case 'image':
      return { type: 'image', url: `data:${item.mimeType};base64,${item.data}`, mimeType: item.mimeType };
    case 'audio':
      return { type: 'resource', uri: `data:${item.mimeType};base64,${item.data}`, mimeType: item.mimeType };
    case 'resource_link':
      return { type: 'resource', uri: item.uri, ...(item.mimeType ? { mimeType: item.mimeType } : {}) };
    case 'resource': {
      const { resource } = item;
      // A binary resource keeps only its uri: blobs do not belong in the run's history.
      const text = 'text' in resource && typeof resource.text === 'string' ? resource.text : undefined;
      return {
        type: 'resource',
        uri: resource.uri,
        ...(resource.mimeType ? { mimeType: resource.mimeType } : {}),
        ...(text !== undefined ? { text } : {}),
      };
    }
    default:
      return { type: 'json', data: item };
  }
}

/** An MCP tool result → blocks: text reaches the model; images and resources stay in the run. */
export function toRichToolResult(result: McpCallResult): RichToolResult {
  const blocks = (result.content ?? []).map(toBlock);
  // Servers are asked to repeat structured content as text; keep one copy out of the history.
  const hasText = blocks.some((block) => block.type === 'text');
  if (result.structuredContent !== undefined && !hasText) blocks.push({ type: 'json', data: result.structuredContent });
  if (blocks.length === 0) blocks.push({ type: 'text', text: result.isError ? 'Error: MCP tool error (no details)' : 'Done' });
  return { blocks, ...(result.isError ? { isError: true } : {}) };
}
