import type { Logger, LogMetadata } from '@temporalio/common';

/**
 * Temporal's bundler writes webpack's statistics (a dozen lines) at INFO on every worker start;
 * they go to DEBUG here. The bundle's size line and every warning and error stay as they are.
 */
export function bundlerLogger(logger: Logger): Logger {
  return {
    log: (level, message, meta) => logger.log(level, message, meta),
    trace: (message, meta) => logger.trace(message, meta),
    debug: (message, meta) => logger.debug(message, meta),
    info: (message: string, meta?: LogMetadata) => (message === 'Workflow bundle created' ? logger.info(message, meta) : logger.debug(message, meta)),
    warn: (message, meta) => logger.warn(message, meta),
    error: (message, meta) => logger.error(message, meta),
  };
}
