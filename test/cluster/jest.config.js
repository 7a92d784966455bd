// `npm run test:cluster`: the cluster tier, against a Temporal cluster on PostgreSQL with every
// service a process of its own (scripts/cluster.cjs; docs/production-cluster.md).
const base = require('../../jest.config.js');

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  rootDir: '../..',
  roots: ['<rootDir>/test'],
  testMatch: [
    '<rootDir>/test/cluster/**/*.test.ts',
    // The end-to-end suites of `npm test` that matter on a real cluster, run again here.
    '<rootDir>/test/workflows/agent-run.test.ts',
    '<rootDir>/test/workflows/approvals.test.ts',
    '<rootDir>/test/conversations/conversation.test.ts',
    '<rootDir>/test/subagents/sub-agents.test.ts',
    '<rootDir>/test/codec/encrypted-history.test.ts',
    '<rootDir>/test/workflows/search-attribute-writes.test.ts',
    '<rootDir>/test/mcp-server/mcp-server.test.ts',
    '<rootDir>/test/worker/worker-versioning.test.ts',
  ],
  testPathIgnorePatterns: ['/node_modules/'],
  // jest's own environment: the chaos files kill and restart processes whose clients retry on timers of their own,
  // and the tier ends its processes in its teardown (the timer check is for `npm test`'s workers, see jest.config.js).
  testEnvironment: 'node',
  globalSetup: '<rootDir>/test/cluster/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/test/cluster/helpers/global-teardown.ts',
  setupFiles: ['<rootDir>/test/cluster/helpers/quiet-runtime.ts'],
  // One file at a time: the chaos files kill processes every other file depends on.
  maxWorkers: 1,
};
