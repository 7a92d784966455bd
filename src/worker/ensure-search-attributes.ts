import type { NativeConnection } from '@temporalio/worker';
import { temporal } from '@temporalio/proto';
import { AGENT_NAME, AGENT_STATUS, AGENT_TOTAL_TOKENS } from '../common/search-attributes';

const IndexedValueType = temporal.api.enums.v1.IndexedValueType;

const REQUIRED = [
  { name: AGENT_NAME.name, type: IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD },
  { name: AGENT_STATUS.name, type: IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD },
  { name: AGENT_TOTAL_TOKENS.name, type: IndexedValueType.INDEXED_VALUE_TYPE_INT },
];

/**
 * Runs upsert these attributes; a namespace without them would fail every workflow task.
 * Register what is missing, or explain what to do when this client may not.
 */
export async function ensureSearchAttributes(connection: NativeConnection, namespace: string, log: (msg: string) => void): Promise<void> {
  const existing = await connection.operatorService.listSearchAttributes({ namespace });
  const known = new Set(Object.keys(existing.customAttributes ?? {}));
  const missing = REQUIRED.filter((attr) => !known.has(attr.name));
  if (missing.length === 0) return;
  try {
    await connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(missing.map((attr) => [attr.name, attr.type])),
    });
    log(`Registered search attributes: ${missing.map((a) => a.name).join(', ')}`);
  } catch (error) {
    throw new Error(
      `The namespace '${namespace}' lacks the search attributes ${missing.map((a) => a.name).join(', ')} and they could not be ` +
        `registered (${(error as Error).message}). Register them with: ` +
        missing.map((a) => `temporal operator search-attribute create --namespace ${namespace} --name ${a.name} --type ${a.type === IndexedValueType.INDEXED_VALUE_TYPE_INT ? 'Int' : 'Keyword'}`).join(' && '),
    );
  }
}
