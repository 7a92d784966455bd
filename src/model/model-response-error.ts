/**
 * A response that arrived but cannot be used: `invalid` when its shape is wrong, `truncated` when
 * a stream ended before the model finished (classified like a broken connection).
 */
export class ModelResponseError extends Error {
  constructor(
    readonly kind: 'invalid' | 'truncated',
    message: string,
  ) {
    super(message);
    this.name = 'ModelResponseError';
  }
}
