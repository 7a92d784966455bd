import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { importGraph } from './import-graph';

const SRC = join(__dirname, '..', '..', 'src');

/**
 * Module-level state the shared workflow code may keep: caches of what every run would compute the
 * same, and a table keyed by one run's own objects. Every run of a worker shares these modules
 * (src/worker/agent-bundle-options.ts), so anything else kept at module level would carry one run's
 * state into another, and a replay would read what other runs left there.
 */
const SHARED_BY_DESIGN: Record<string, string> = {
  'common/boundary/payload-schemas: built': 'the payload schemas, built on first use; the same for every run',
  'common/contracts/published-waits: schema': 'the published waits schema, built on first use',
  'workflows/context/steering: inFlight': 'keyed by a run’s own context slice: no run reaches another’s entry',
};

const MUTABLE_CONTAINERS = new Set(['Map', 'Set', 'WeakMap', 'WeakSet', 'Array']);

/** The src files the shared modules are made of: what the workflows entry and its interceptors import, transitively. */
function sharedFiles(): string[] {
  const edges = new Map<string, string[]>();
  for (const edge of importGraph(SRC)) {
    if (edge.typeOnly || edge.target === undefined) continue;
    edges.set(edge.from, [...(edges.get(edge.from) ?? []), edge.target]);
  }
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const next of edges.get(file) ?? []) visit(next);
  };
  visit('workflows/index');
  visit('telemetry/workflow-interceptors');
  return [...seen];
}

function declaredType(declaration: ts.VariableDeclaration): string {
  return declaration.type ? declaration.type.getText() : '';
}

/** The module's top-level variable statements (`text`: a module that is not a file, for the checks' own tests). */
function topLevelVariables(file: string, text = readFileSync(join(SRC, `${file}.ts`), 'utf8')): ts.VariableStatement[] {
  return ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true).statements.filter(ts.isVariableStatement);
}

/** The identifier an expression is built from: `z` for `z.object({...}).strict()`. */
function rootOf(expression: ts.Expression): string | undefined {
  let node: ts.Expression = expression;
  while (ts.isCallExpression(node) || ts.isPropertyAccessExpression(node) || ts.isParenthesizedExpression(node)) node = node.expression;
  return ts.isIdentifier(node) ? node.text : undefined;
}

const isExported = (statement: ts.VariableStatement) => statement.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword) ?? false;

/**
 * Exported schemas of a shared module: Temporal freezes the exports it shares, and a zod schema
 * writes its own cache on its first parse, which then throws. Kept in the module (and exported
 * behind a function) they are not frozen.
 */
function exportedSchemas(file: string, text?: string): string[] {
  return topLevelVariables(file, text)
    .filter(isExported)
    .flatMap((statement) => statement.declarationList.declarations.filter((declaration) => declaration.initializer && rootOf(declaration.initializer) === 'z'))
    .map((declaration) => `${file}: ${declaration.name.getText()}`);
}

/** Top-level bindings of a module that a run could write: `let`/`var`, and mutable containers not typed read-only. */
function moduleState(file: string, text?: string): string[] {
  const found: string[] = [];
  for (const statement of topLevelVariables(file, text)) {
    const constant = (statement.declarationList.flags & ts.NodeFlags.Const) !== 0;
    for (const declaration of statement.declarationList.declarations) {
      const name = declaration.name.getText();
      if (!constant) {
        found.push(`${file}: ${name}`);
        continue;
      }
      const init = declaration.initializer;
      const container = init && ts.isNewExpression(init) && MUTABLE_CONTAINERS.has(init.expression.getText());
      if (container && !/^Readonly(Map|Set)<|^readonly /.test(declaredType(declaration))) found.push(`${file}: ${name}`);
    }
  }
  return found;
}

describe('the workflow code every run of a worker shares', () => {
  const files = sharedFiles();

  it('is the loop, its rooms and what they import', () => {
    expect(files).toEqual(expect.arrayContaining(['workflows/index', 'workflows/run/react-loop', 'common/boundary/payload-schemas', 'telemetry/workflow-interceptors']));
  });

  it('keeps no state of a run at module level: only the caches and tables named here, each with its reason', () => {
    const state = files.flatMap((file) => moduleState(file)).sort();
    expect(state).toEqual(Object.keys(SHARED_BY_DESIGN).sort());
  });

  it('exports no zod schema, which would be frozen and throw on its first parse', () => {
    expect(files.flatMap((file) => exportedSchemas(file))).toEqual([]);
    expect(exportedSchemas('probe', 'export const a = z\n  .object({ x: z.string() })\n  .strict();\nconst b = z.string();\nexport const c = { y: 1 };')).toEqual(['probe: a']);
  });

  it('tells a module-level `let` and a mutable container from a read-only table', () => {
    const text = 'let count = 0;\nconst seen = new Map<string, number>();\nconst fixed: ReadonlySet<string> = new Set(["a"]);\nfunction f() { let local = 1; return local; }';
    expect(moduleState('probe', text)).toEqual(['probe: count', 'probe: seen']);
  });
});
