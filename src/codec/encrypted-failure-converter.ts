import { DefaultFailureConverter } from '@temporalio/common';

/**
 * Loaded by path (DataConverter.failureConverterPath), also inside the workflow sandbox: failure
 * messages and stack traces travel in the failure's encoded attributes, a payload the codec
 * encrypts, instead of plain text.
 */
export const failureConverter = new DefaultFailureConverter({ encodeCommonAttributes: true });
