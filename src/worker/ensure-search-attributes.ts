import type { NativeConnection } from '@temporalio/worker';
import { temporal } from '@temporalio/proto';
import { AGENT_FORK_OF, AGENT_NAME, AGENT_SESSION_ID, AGENT_STATUS, AGENT_TOTAL_TOKENS, AGENT_TURNS } from '../common/search-attributes';

const IndexedValueType = temporal.api.enums.v1.IndexedValueType;

const REQUIRED = [
  { name: AGENT_NAME.name, type: IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD },
  { name: AGENT_STATUS.name, type: IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD },
  { name: AGENT_TOTAL_TOKENS.name, type: IndexedValueType.INDEXED_VALUE_TYPE_INT },
  { name: AGENT_SESSION_ID.name, type: IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD },
  { name: AGENT_TURNS.name, type: IndexedValueType.INDEXED_VALUE_TYPE_INT },
  { name: AGENT_FORK_OF.name, type: IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD },
];

type Attribute = (typeof REQUIRED)[number];

const GRPC_ALREADY_EXISTS = 6;
const GRPC_UNIMPLEMENTED = 12;

function grpcCode(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'number' ? code : undefined;
}

function createCommands(namespace: string, attributes: Attribute[]): string {
  return attributes
    .map((a) => `temporal operator search-attribute create --namespace ${namespace} --name ${a.name} --type ${a.type === IndexedValueType.INDEXED_VALUE_TYPE_INT ? 'Int' : 'Keyword'}`)
    .join(' && ');
}

function registrationFailed(namespace: string, attributes: Attribute[], error: unknown): Error {
  return new Error(
    `The namespace '${namespace}' lacks the search attributes ${attributes.map((a) => a.name).join(', ')} and they could not be ` +
      `registered (${(error as Error).message}). Register them with: ${createCommands(namespace, attributes)}`,
  );
}

/** The custom attributes the namespace knows, or undefined when the server cannot list them. */
async function listCustom(connection: NativeConnection, namespace: string): Promise<Set<string> | undefined> {
  try {
    const existing = await connection.operatorService.listSearchAttributes({ namespace });
    return new Set(Object.keys(existing.customAttributes ?? {}));
  } catch (error) {
    if (grpcCode(error) === GRPC_UNIMPLEMENTED) return undefined;
    throw error;
  }
}

/**
 * Servers that cannot list search attributes (the time-skipping test server can only add them):
 * add each one, where "already exists" counts as registered.
 */
async function addEach(connection: NativeConnection, namespace: string, log: (msg: string) => void): Promise<void> {
  for (const attr of REQUIRED) {
    try {
      await connection.operatorService.addSearchAttributes({ namespace, searchAttributes: { [attr.name]: attr.type } });
    } catch (error) {
      const code = grpcCode(error);
      if (code === GRPC_ALREADY_EXISTS) continue;
      if (code === GRPC_UNIMPLEMENTED) {
        log(`This server can neither list nor add search attributes; assuming ${REQUIRED.map((a) => a.name).join(', ')} exist.`);
        return;
      }
      throw registrationFailed(namespace, [attr], error);
    }
  }
}

/**
 * Runs upsert these attributes; a namespace without them would fail every workflow task.
 * Register what is missing, or explain what to do when this client may not.
 */
export async function ensureSearchAttributes(connection: NativeConnection, namespace: string, log: (msg: string) => void): Promise<void> {
  const known = await listCustom(connection, namespace);
  if (!known) return addEach(connection, namespace, log);
  const missing = REQUIRED.filter((attr) => !known.has(attr.name));
  if (missing.length === 0) return;
  try {
    await connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(missing.map((attr) => [attr.name, attr.type])),
    });
    log(`Registered search attributes: ${missing.map((a) => a.name).join(', ')}`);
  } catch (error) {
    throw registrationFailed(namespace, missing, error);
  }
}
