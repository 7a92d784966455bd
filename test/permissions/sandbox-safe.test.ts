import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';

// The engine may run inside Temporal's deterministic workflow sandbox.
const folder = join(__dirname, '../../src/permissions');
const sources = readdirSync(folder)
  .filter((file) => file.endsWith('.ts'))
  .map((file) => [file, readFileSync(join(folder, file), 'utf8')] as const);

describe('src/permissions is sandbox-safe', () => {
  it('has sources to check', () => {
    const files = sources.map(([file]) => file);
    expect(files).toEqual(expect.arrayContaining(['evaluate-permission.ts', 'match-rule.ts', 'rule.ts', 'index.ts']));
  });

  it.each(sources)('%s imports only relative modules and src/common', (_, source) => {
    const specifiers = [...source.matchAll(/(?:from|import|require\()\s*['"]([^'"]+)['"]/g)].map((match) => match[1]);
    for (const specifier of specifiers) {
      expect(specifier).toMatch(/^(\.\/[a-z-]+|\.\.\/common\/[a-z-]+)$/);
    }
  });

  it.each(sources)('%s uses no clock, randomness, timers or globals of the host', (_, source) => {
    const forbidden = /\bDate\b|Math\.random|\bsetTimeout\b|\bsetInterval\b|\bprocess\.|\bconsole\.|\brequire\(|\bglobalThis\b/;
    expect(source).not.toMatch(forbidden);
  });
});
