/** @type {import('jest').Config} */
module.exports = {
  // jest's node environment, failing a test file that leaves a timer running (it would keep jest's worker alive).
  testEnvironment: '<rootDir>/test/helpers/timer-checking-environment.ts',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // The cluster tier and the real-model tier run on their own: npm run test:cluster, npm run test:model.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/cluster/', '<rootDir>/test/real-model/'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: false }] },
  globalSetup: '<rootDir>/test/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
  setupFiles: ['<rootDir>/test/helpers/quiet-runtime.ts'],
  testTimeout: 120000,
  maxWorkers: 2,
};
