import { webUiUrlFor } from '../../src/client/client-config';

describe('the Web UI link follows the connection', () => {
  test.each([
    ['127.0.0.1:7233', 'http://localhost:8233'],
    ['localhost:7299', 'http://localhost:8299'],
    ['my-ns.a1b2c.tmprl.cloud:7233', 'https://cloud.temporal.io'],
    ['temporal.internal:7233', 'http://temporal.internal:8080'],
  ])('%s → %s', (address, url) => {
    expect(webUiUrlFor(address)).toBe(url);
  });
});
