#!/usr/bin/env node
'use strict';
// Installed from the package, the CLI runs the compiled JavaScript in dist. In a checkout of the
// repository (src is there) it runs the sources through tsx, a devDependency, so it never runs a
// dist older than the code beside it.
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const sources = join(__dirname, '..', 'src', 'cli', 'main.ts');
if (existsSync(sources)) {
  require('tsx/cjs');
  require(sources);
} else {
  require(join(__dirname, '..', 'dist', 'cli', 'main.js'));
}
