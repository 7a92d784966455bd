import type { IncomingMessage } from 'node:http';
import { isLoopbackHost, loopbackHostHeader, normalOrigin, originAllowed, sameOrigin } from '../../src/http';

const requestWith = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

describe('isLoopbackHost and loopbackHostHeader', () => {
  test('loopback names and addresses: localhost, 127.0.0.0/8, ::1 (bracketed or not)', () => {
    for (const host of ['localhost', '127.0.0.1', '127.1.2.3', '::1', '[::1]']) expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['0.0.0.0', '10.0.0.1', 'example.com', 'localhost.example.com', '128.0.0.1', '127.0.0', '::', '[::2]', '']) expect(isLoopbackHost(host)).toBe(false);
  });

  test('a Host header names a loopback address with or without a port', () => {
    for (const header of ['localhost', 'localhost:8080', '127.0.0.1:3000', '[::1]', '[::1]:7400']) expect(loopbackHostHeader(header)).toBe(true);
    for (const header of [undefined, '', 'evil.example:8080', 'rebind.example.com', '192.168.1.2:80', '[::2]:80']) expect(loopbackHostHeader(header)).toBe(false);
  });
});

describe('origins: normalOrigin, originAllowed (an allow-list beside loopback), sameOrigin (the Host it was sent to)', () => {
  test('normalOrigin: as browsers send it, normalized; undefined for what is no origin', () => {
    expect(normalOrigin('https://App.example.com:443')).toBe('https://app.example.com');
    expect(normalOrigin('http://localhost:8233')).toBe('http://localhost:8233');
    expect(normalOrigin('chrome-extension://ABCDEF')).toBe('chrome-extension://abcdef');
    for (const text of ['null', 'https://app.example.com/path', 'https://user:pw@app.example.com', 'not a url', '']) expect(normalOrigin(text)).toBeUndefined();
  });

  test('originAllowed: a loopback origin on any port, or one allowed; others refused', () => {
    const allowed = new Set(['https://app.example.com', 'chrome-extension://abcdef']);
    for (const origin of ['http://localhost:5173', 'https://127.0.0.1', 'http://[::1]:8080', 'https://APP.example.com:443', 'chrome-extension://ABCDEF']) {
      expect(originAllowed(origin, allowed)).toBe(true);
    }
    for (const origin of ['https://evil.example', 'null', 'http://localhost.evil.example', 'moz-extension://other', 'https://app.example.com/x']) {
      expect(originAllowed(origin, allowed)).toBe(false);
    }
  });

  test('sameOrigin: a request without Origin passes; with one, its host must be the Host header', () => {
    expect(sameOrigin(requestWith({ host: '127.0.0.1:7400' }))).toBe(true);
    expect(sameOrigin(requestWith({ host: '127.0.0.1:7400', origin: 'http://127.0.0.1:7400' }))).toBe(true);
    expect(sameOrigin(requestWith({ host: 'inbox.example.com', origin: 'https://inbox.example.com' }))).toBe(true);
    expect(sameOrigin(requestWith({ host: '127.0.0.1:7400', origin: 'http://localhost:7400' }))).toBe(false);
    expect(sameOrigin(requestWith({ host: '127.0.0.1:7400', origin: 'null' }))).toBe(false);
    expect(sameOrigin(requestWith({ host: 'abcdef', origin: 'chrome-extension://abcdef' }))).toBe(false);
  });
});
