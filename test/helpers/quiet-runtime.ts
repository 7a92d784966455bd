import { DefaultLogger, Runtime } from '@temporalio/worker';

// Expected failures (a model answering 400, a killed worker) would flood the output at INFO level.
Runtime.install({ logger: new DefaultLogger((process.env.TEMPORAL_TEST_LOG_LEVEL as 'ERROR') || 'ERROR') });
