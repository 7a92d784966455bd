/** @type {import('jest').Config} */
module.exports = {
  // jest's node environment, failing a test file that leaves a timer running (it would keep jest's worker alive).
  testEnvironment: '<rootDir>/test/helpers/timer-checking-environment.ts',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // The cluster tier and the real-model tier run on their own: npm run test:cluster, npm run test:model.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/cluster/', '<rootDir>/test/real-model/'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: false }],
    // jose (required by @a2a-js/sdk's CommonJS build) is ESM only: Node 20.19+ requires it as it is, jest's module system does not.
    '/node_modules/jose/.+\\.js$': ['ts-jest', { tsconfig: { allowJs: true, module: 'commonjs', target: 'ES2022' }, diagnostics: false }],
  },
  transformIgnorePatterns: ['/node_modules/(?!jose/)'],
  globalSetup: '<rootDir>/test/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
  setupFiles: ['<rootDir>/test/helpers/quiet-runtime.ts'],
  testTimeout: 120000,
  maxWorkers: 2,
};
