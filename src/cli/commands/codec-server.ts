import { printJson } from '../cli-output';
import { untilStopped } from '../until-stopped';
import { stringOption, type CliCommand } from '../command';
import { encryptionKeysFromFlags } from '../encryption-flags';
import { listenPortOption } from '../listen-port';

const DETAILS = [
  "Serves Temporal's codec server endpoints (POST /encode, POST /decode) with the payload encryption keys",
  '(--encryption-key-file, AGENT_ENCRYPTION_KEY_FILE or AGENT_ENCRYPTION_KEYS), so a Web UI pointed at it shows',
  'decrypted inputs, results and signals: `temporal server start-dev --ui-codec-endpoint http://localhost:8888`,',
  "or the UI's Data Encoder settings (per browser). The temporal CLI uses it with --codec-endpoint URL",
  '(and --codec-auth "Bearer TOKEN"). It listens on 127.0.0.1 unless --host says otherwise: whoever reaches it',
  'can decrypt every payload. Runs until Ctrl-C.',
].join('\n');

export const codecServerCommand: CliCommand = {
  name: 'codec-server',
  usage: 'codec-server [--port N] [--host H] [--cors-origin URL] [--token TOKEN] [--json]',
  summary: 'Serve the payload encryption keys as a codec server, so the Web UI shows decrypted payloads to those who point it there.',
  details: DETAILS,
  options: {
    port: { type: 'string', valueName: 'N', description: 'port to listen on (0 picks a free one)', defaultText: '8888' },
    host: { type: 'string', valueName: 'H', description: 'address to listen on; anything but loopback exposes the keys to the network', defaultText: '127.0.0.1' },
    'cors-origin': { type: 'string', multiple: true, valueName: 'URL', description: 'origin of the Web UI allowed to call it (repeatable)', defaultText: 'http://localhost:8233' },
    token: { type: 'string', valueName: 'TOKEN', description: 'require `Authorization: Bearer TOKEN` on every request', env: 'AGENT_CODEC_SERVER_TOKEN' },
  },
  examples: [
    'codec-server',
    'codec-server --port 8888 --cors-origin http://localhost:8233 --encryption-key-file secrets/keys.json',
    'codec-server --host 0.0.0.0 --token "$(openssl rand -hex 24)" --cors-origin https://temporal.example.com',
  ],
  async run(ctx) {
    const port = listenPortOption(ctx, 'port');
    const host = stringOption(ctx, 'host');
    const origins = ctx.values['cors-origin'];
    const token = stringOption(ctx, 'token') ?? (process.env.AGENT_CODEC_SERVER_TOKEN || undefined);
    const keys = encryptionKeysFromFlags(ctx.values);
    if (!keys) {
      throw new Error('codec-server needs the encryption keys: --encryption-key-file PATH, AGENT_ENCRYPTION_KEY_FILE or AGENT_ENCRYPTION_KEYS.');
    }
    const { createEncryptionCodec } = require('../../codec/encryption-codec') as typeof import('../../codec/encryption-codec');
    const { DEFAULT_CORS_ORIGIN, startCodecServer } = require('../../codec/codec-server') as typeof import('../../codec/codec-server');
    const { isLoopbackHost } = require('../../codec/codec-server-access') as typeof import('../../codec/codec-server-access');
    const corsOrigins = Array.isArray(origins) && origins.length > 0 ? origins : [DEFAULT_CORS_ORIGIN];
    const server = await startCodecServer({
      codec: createEncryptionCodec(keys),
      ...(port !== undefined ? { port } : {}),
      ...(host ? { host } : {}),
      corsOrigins,
      ...(token ? { token } : {}),
      log: (line) => ctx.output.err(line),
    });
    if (!isLoopbackHost(server.host) && !token) {
      ctx.output.err(`Warning: listening on ${server.host} without --token: anyone who reaches ${server.url} can decrypt every payload.`);
    }
    if (ctx.json) printJson(ctx.output, { url: server.url, host: server.host, port: server.port, corsOrigins, token: Boolean(token), currentKey: keys.current });
    else {
      ctx.output.out(`Codec server on ${server.url} (key '${keys.current}' encrypts; ${Object.keys(keys.keys).length} key(s) decrypt)`);
      ctx.output.out(`Web UI: temporal server start-dev --ui-codec-endpoint ${server.url}, or the UI's Data Encoder settings (allowed origins: ${corsOrigins.join(', ')})`);
      ctx.output.out(`temporal CLI: temporal workflow show --codec-endpoint ${server.url}${token ? ' --codec-auth "Bearer TOKEN"' : ''} --workflow-id ID`);
    }
    await untilStopped();
    await server.close();
    return 0;
  },
};
