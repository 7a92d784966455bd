import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { resolveTracing } from '../../src/telemetry/tracing';

const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };

describe('tracing configuration', () => {
  test('off unless a span processor is given or the OTEL_* variables name an exporter', async () => {
    expect(resolveTracing(undefined, {})).toBeUndefined();
    expect(resolveTracing({ captureContent: true }, {})).toBeUndefined();
    expect(resolveTracing(false, endpoint)).toBeUndefined();
    expect(resolveTracing(undefined, { ...endpoint, OTEL_TRACES_EXPORTER: 'none' })).toBeUndefined();
    expect(resolveTracing(undefined, { ...endpoint, OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
    for (const env of [endpoint, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces' }, { OTEL_TRACES_EXPORTER: 'otlp' }]) {
      const tracing = resolveTracing(undefined, env);
      expect(tracing).toBeDefined();
      await tracing!.close();
    }
    expect(() => resolveTracing(undefined, { ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(/http\/protobuf/);
    expect(() => resolveTracing(undefined, { OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(/otlp, console and none/);
  });

  test('content capture: the option, else the convention’s own variable', async () => {
    const spanProcessor = new SimpleSpanProcessor(new InMemorySpanExporter());
    const on = { OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true' };
    expect(resolveTracing({ spanProcessor }, {})!.captureContent).toBe(false);
    expect(resolveTracing({ spanProcessor }, on)!.captureContent).toBe(true);
    expect(resolveTracing({ spanProcessor, captureContent: false }, on)!.captureContent).toBe(false);
    expect(resolveTracing({ spanProcessor, captureContent: true }, {})!.captureContent).toBe(true);
  });

  test('OTEL_EXPORTER_OTLP_ENDPOINT and OTEL_SERVICE_NAME alone send spans over OTLP/HTTP (protobuf)', async () => {
    const received: { url?: string; type?: string; body: Buffer }[] = [];
    const server = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ url: req.url, type: req.headers['content-type'], body: Buffer.concat(chunks) });
        res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const saved = { ...process.env };
    try {
      // The exporter and the resource read process.env themselves.
      process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      process.env.OTEL_SERVICE_NAME = 'agent-worker-under-test';
      const tracing = resolveTracing(undefined)!;
      tracing.tracer.startSpan('a-span-for-the-collector').end();
      await tracing.close();
    } finally {
      process.env = saved;
      await new Promise((resolve) => server.close(resolve));
    }
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ url: '/v1/traces', type: 'application/x-protobuf' });
    expect(received[0]!.body.includes('a-span-for-the-collector')).toBe(true);
    expect(received[0]!.body.includes('agent-worker-under-test')).toBe(true);
  });
});
