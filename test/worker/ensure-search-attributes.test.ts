import type { NativeConnection } from '@temporalio/worker';
import { ensureSearchAttributes } from '../../src/worker/ensure-search-attributes';

type AddRequest = { namespace: string; searchAttributes: Record<string, number> };

function grpcError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/** An operator service that may lack ListSearchAttributes, as the time-skipping test server does. */
function fakeConnection(options: { list?: string[] | Error; add?: (request: AddRequest) => void }) {
  const added: AddRequest[] = [];
  const connection = {
    operatorService: {
      async listSearchAttributes() {
        if (options.list instanceof Error) throw options.list;
        return { customAttributes: Object.fromEntries((options.list ?? []).map((name) => [name, 2])) };
      },
      async addSearchAttributes(request: AddRequest) {
        options.add?.(request);
        added.push(request);
        return {};
      },
    },
  } as unknown as NativeConnection;
  return { connection, added };
}

const UNIMPLEMENTED = grpcError(12, '12 UNIMPLEMENTED: Method ListSearchAttributes is unimplemented');

describe('ensureSearchAttributes', () => {
  test('registers only the missing attributes', async () => {
    const { connection, added } = fakeConnection({ list: ['AgentName'] });
    await ensureSearchAttributes(connection, 'default', () => undefined);
    expect(added).toEqual([{ namespace: 'default', searchAttributes: { AgentStatus: 2, AgentTotalTokens: 3, AgentSessionId: 2, AgentTurns: 3, AgentForkOf: 2 } }]);
  });

  test('without ListSearchAttributes it adds each attribute; "already exists" counts as registered', async () => {
    const { connection, added } = fakeConnection({
      list: UNIMPLEMENTED,
      add: (request) => {
        if ('AgentName' in request.searchAttributes) throw grpcError(6, 'Search attribute AgentName already exists.');
      },
    });
    await ensureSearchAttributes(connection, 'default', () => undefined);
    expect(added.map((r) => Object.keys(r.searchAttributes)[0])).toEqual(['AgentStatus', 'AgentTotalTokens', 'AgentSessionId', 'AgentTurns', 'AgentForkOf']);
  });

  test('a server that can neither list nor add is trusted, with a log line', async () => {
    const logged: string[] = [];
    const { connection } = fakeConnection({
      list: UNIMPLEMENTED,
      add: () => {
        throw grpcError(12, 'unimplemented');
      },
    });
    await ensureSearchAttributes(connection, 'default', (line) => logged.push(line));
    expect(logged).toEqual([expect.stringMatching(/can neither list nor add search attributes/)]);
  });

  test('other failures say how to register the attributes by hand', async () => {
    const { connection } = fakeConnection({
      list: UNIMPLEMENTED,
      add: () => {
        throw grpcError(7, 'permission denied');
      },
    });
    await expect(ensureSearchAttributes(connection, 'ns', () => undefined)).rejects.toThrow(
      /temporal operator search-attribute create --namespace ns --name AgentName --type Keyword/,
    );
    const listing = fakeConnection({ list: grpcError(14, 'unavailable') });
    await expect(ensureSearchAttributes(listing.connection, 'ns', () => undefined)).rejects.toThrow('unavailable');
  });
});
