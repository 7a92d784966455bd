/** Keeps the last part of a child's stderr, to explain why a server failed. */
export interface StderrTail {
  push(chunk: string): void;
  text(): string;
}

export function createStderrTail(maxChars = 4000): StderrTail {
  let buffer = '';
  return {
    push(chunk) {
      buffer = (buffer + chunk).slice(-maxChars);
    },
    text() {
      return buffer.trim();
    },
  };
}
