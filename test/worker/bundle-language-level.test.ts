import { readFileSync } from 'node:fs';
import { TEST_ENV } from '../helpers/temporal-env';
import { atBundleLanguageLevel, WORKFLOW_BUNDLE_TARGET } from '../../src/worker/bundle-language-level';

describe('the workflow bundle made from the sources', () => {
  it('runs the language level the package is compiled to: no ES2017 helpers for spreads', () => {
    const path = process.env[TEST_ENV.workflowBundle];
    expect(path).toBeDefined();
    const code = readFileSync(path!, 'utf8');
    // At Temporal's ES2017 every `{ ...x }` of the loop's sources becomes a call of these helpers.
    expect(code).not.toMatch(/function _object_spread(_props)?\(/);
    expect(code).toContain('./src/workflows/run/react-loop.ts');
  });

  it('changes only the TypeScript rule of the bundler', () => {
    const swc = { test: /\.ts$/, use: { loader: '/x/node_modules/swc-loader/index.js', options: { sourceMap: true, jsc: { target: 'es2017', parser: { syntax: 'typescript' } } } } };
    const sourceMaps = { test: /\.js$/, enforce: 'pre' as const, use: ['/x/node_modules/source-map-loader/index.js'] };
    const config = atBundleLanguageLevel({ module: { rules: [sourceMaps, swc] } });
    expect(config.module?.rules).toEqual([
      sourceMaps,
      { test: /\.ts$/, use: { loader: '/x/node_modules/swc-loader/index.js', options: { sourceMap: true, jsc: { target: WORKFLOW_BUNDLE_TARGET, parser: { syntax: 'typescript' } } } } },
    ]);
  });
});
