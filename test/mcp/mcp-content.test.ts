import { toRichToolResult } from '../../src/mcp/mcp-content';

describe('toRichToolResult', () => {
  it('maps text, images, audio, resource links and embedded resources', () => {
    const result = toRichToolResult({
      content: [
        { type: 'text', text: 'hello' },
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
        { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt', mimeType: 'text/plain' },
        { type: 'resource', resource: { uri: 'demo://1', mimeType: 'text/plain', text: 'body' } },
        { type: 'resource', resource: { uri: 'demo://2', mimeType: 'application/zip', blob: 'UEsDBA==' } },
      ],
    });
    expect(result).toEqual({
      blocks: [
        { type: 'text', text: 'hello' },
        { type: 'image', url: 'data:image/png;base64,iVBORw0KGgo=', mimeType: 'image/png' },
        { type: 'resource', uri: 'data:audio/wav;base64,UklGRg==', mimeType: 'audio/wav' },
        { type: 'resource', uri: 'file:///a.txt', mimeType: 'text/plain' },
        { type: 'resource', uri: 'demo://1', mimeType: 'text/plain', text: 'body' },
        { type: 'resource', uri: 'demo://2', mimeType: 'application/zip' },
      ],
    });
  });

  it('keeps structured content as json only when no text repeats it', () => {
    expect(toRichToolResult({ content: [{ type: 'text', text: '{"t":1}' }], structuredContent: { t: 1 } })).toEqual({
      blocks: [{ type: 'text', text: '{"t":1}' }],
    });
  });

  it('marks error results and keeps structured content as json', () => {
    expect(toRichToolResult({ content: [{ type: 'text', text: 'nope' }], isError: true })).toEqual({
      blocks: [{ type: 'text', text: 'nope' }],
      isError: true,
    });
    expect(toRichToolResult({ content: [], structuredContent: { t: 1 } })).toEqual({ blocks: [{ type: 'json', data: { t: 1 } }] });
  });

  it('never returns an empty result', () => {
    expect(toRichToolResult({ content: [] })).toEqual({ blocks: [{ type: 'text', text: 'Done' }] });
    expect(toRichToolResult({ content: [], isError: true })).toEqual({
      blocks: [{ type: 'text', text: 'Error: MCP tool error (no details)' }],
      isError: true,
    });
  });
});
