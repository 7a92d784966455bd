import { NativeConnection } from '@temporalio/worker';
import { connectWithin } from './connect-within';
import type { ConnectionSettings } from './connection-settings';

/** The worker's connection (Rust core): it fails fast, but in debug text, and has no timeout of its own. */
export function connectNative(settings: ConnectionSettings): Promise<NativeConnection> {
  return connectWithin({
    settings,
    connect: () => NativeConnection.connect(settings.connectionOptions),
    close: (c) => c.close(),
    probe: { mode: 'after-failure' },
  });
}
