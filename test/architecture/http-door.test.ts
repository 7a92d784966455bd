import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const SRC = join(__dirname, '..', '..', 'src');

/**
 * src/http/ is the one home of the servers' HTTP pieces: only it writes server-sent events (their
 * header, their fields) and declares an HttpError. Readers that only ask for the stream (an
 * `accept: 'text/event-stream'` request header, like src/client/stream/'s) are not writes.
 */
const RULES: { what: string; pattern: RegExp }[] = [
  // `'content-type': 'text/event-stream'` in a writeHead's headers, or setHeader('Content-Type', 'text/event-stream').
  { what: 'writes a text/event-stream Content-Type: use EventStream from src/http', pattern: /\bcontent-type['"`]?\s*[:,]\s*['"`]text\/event-stream/i },
  // response.write(`id: ${cursor}\nevent: ...`), write('event: end\ndata: {}\n\n'), write(`retry: 2000\n\n`)...
  { what: "writes server-sent event fields by hand: use EventStream's send()", pattern: /\.write\(\s*['"`](?:id|event|data|retry):/ },
  { what: 'declares an HttpError: use the one in src/http', pattern: /\bclass\s+HttpError\b/ },
];

/** Every line of these files that breaks a rule, as `file:line: what`, outside src/http/. */
function httpDoorViolations(files: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of files) {
    if (file.startsWith('http/')) continue;
    text.split('\n').forEach((line, index) => {
      for (const rule of RULES) if (rule.pattern.test(line)) found.push(`${file}:${index + 1}: ${rule.what}`);
    });
  }
  return found;
}

function sources(dir = SRC): Map<string, string> {
  const found = new Map<string, string>();
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) for (const [file, text] of sources(path)) found.set(file, text);
    else if (name.endsWith('.ts')) found.set(relative(SRC, path).split('\\').join('/'), readFileSync(path, 'utf8'));
  }
  return found;
}

describe('src/http/ is the door for server-sent events and HttpError', () => {
  const files = sources();
  const violations = httpDoorViolations(files);

  test('reads the sources, src/http/ among them', () => {
    expect(files.size).toBeGreaterThan(300);
    expect(files.get('http/event-stream.ts')).toContain("'text/event-stream'");
    expect(files.get('http/http-error.ts')).toContain('class HttpError');
  });

  test('nothing outside src/http/ writes a text/event-stream response or its fields by hand, or declares an HttpError', () => {
    expect(violations).toEqual([]);
  });

  test('the rules catch writes and declarations, and leave readers alone', () => {
    const written = new Map([
      ['worker/a.ts', "res.writeHead(200, { 'content-type': 'text/event-stream', connection: 'keep-alive' });"],
      ['inbox/b.ts', "response.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8' });"],
      ['codec/c.ts', "response.setHeader('Content-Type', \"text/event-stream\");"],
      ['testing/d.ts', 'await writeAndFlush(res, `data: ${payload}\\n\\n`); res.write(`id: ${n}\\nevent: delta\\n`);'],
      ['mcp-server/e.ts', 'export class HttpError extends Error {}'],
      ['http/f.ts', "res.writeHead(200, { 'content-type': 'text/event-stream' }); class HttpError {}"],
    ]);
    expect(httpDoorViolations(written)).toEqual([
      'worker/a.ts:1: writes a text/event-stream Content-Type: use EventStream from src/http',
      'inbox/b.ts:1: writes a text/event-stream Content-Type: use EventStream from src/http',
      'codec/c.ts:1: writes a text/event-stream Content-Type: use EventStream from src/http',
      "testing/d.ts:1: writes server-sent event fields by hand: use EventStream's send()",
      'mcp-server/e.ts:1: declares an HttpError: use the one in src/http',
    ]);
    const read = new Map([
      ['client/stream/reader.ts', "await fetch(url, { headers: { accept: 'text/event-stream' } });"],
      ['client/check.ts', "if (!response.headers.get('content-type')?.includes('text/event-stream')) throw new Error('not a stream');"],
      ['inbox/f.ts', "import { HttpError } from '../http';\nthrow new HttpError(404, 'Not found');"],
    ]);
    expect(httpDoorViolations(read)).toEqual([]);
  });
});
