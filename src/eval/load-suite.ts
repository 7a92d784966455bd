import { readFileSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import type { PayloadCodec } from '@temporalio/common';
import { importModule } from '../worker/load-agents-module';
import { decryptSuiteFile, isEncryptedSuiteFile } from './case-file';
import type { EvalSuiteInput } from './define-suite';
import { describeInvalid, issueLines } from './schema-issues';
import { evalSuiteSchema } from './suite-schema';

export interface LoadedSuite {
  path: string;
  suite: EvalSuiteInput;
  /** The agents module the suite names, resolved against its folder. */
  agentsModule?: string;
}

const MODULE = /\.[cm]?[jt]sx?$/;

async function readSuiteValue(path: string, codec: () => PayloadCodec | undefined): Promise<unknown> {
  if (MODULE.test(path)) {
    const exports = (await importModule(path)) as Record<string, unknown>;
    const suite = exports.default ?? exports.suite;
    if (suite === undefined) throw new Error(`${path} exports no suite: export it as the default export or as \`suite\` (defineEvalSuite({ … })).`);
    // An ES module's default export reached through CommonJS is one level down.
    return (suite as { default?: unknown }).default !== undefined && (suite as { cases?: unknown }).cases === undefined ? (suite as { default: unknown }).default : suite;
  }
  if (extname(path) !== '.json') throw new Error(`${path}: a suite is a .json file or a JavaScript or TypeScript module`);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path} is not JSON: ${(error as Error).message}`);
  }
  return isEncryptedSuiteFile(value) ? decryptSuiteFile(value, path, codec) : value;
}

/** A suite file (JSON, possibly encrypted, or a module), checked against the suite schema. */
export async function loadSuite(file: string, codec: () => PayloadCodec | undefined): Promise<LoadedSuite> {
  const path = resolve(file);
  const value = await readSuiteValue(path, codec);
  const parsed = evalSuiteSchema.safeParse(value);
  if (!parsed.success) throw new Error(describeInvalid(`${file} is not an eval suite`, issueLines(parsed.error)));
  // The value as written: functions and zod schemas stay what they are.
  const suite = value as EvalSuiteInput;
  return { path, suite, ...(suite.agents ? { agentsModule: resolve(dirname(path), suite.agents) } : {}) };
}
