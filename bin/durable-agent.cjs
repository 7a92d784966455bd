#!/usr/bin/env node
// The CLI runs from the TypeScript sources through tsx, so no build step is needed.
require('tsx/cjs');
require('../src/client/cli/main.ts');
