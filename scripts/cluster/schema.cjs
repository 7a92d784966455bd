'use strict';
// The two databases and their schemas, with the server's own schema tool and the schemas
// embedded in it (the same files as schema/postgresql/v12 in the server module).

const { spawnSync } = require('node:child_process');
const { PG_USER } = require('./postgres.cjs');

const DATABASES = [
  { name: 'temporal', schema: 'postgresql/v12/temporal' },
  { name: 'temporal_visibility', schema: 'postgresql/v12/visibility' },
];

function sqlTool(sqlToolPath, { port, password }, database, args) {
  const result = spawnSync(
    sqlToolPath,
    ['--plugin', 'postgres12', '--endpoint', '127.0.0.1', '--port', String(port), '--user', PG_USER, '--database', database, ...args],
    { encoding: 'utf8', env: { ...process.env, SQL_PASSWORD: password } },
  );
  if (result.status !== 0) {
    throw new Error(`temporal-sql-tool ${args[0]} on ${database} failed (exit ${result.status}):\n${result.stdout}${result.stderr}`);
  }
}

/** Creates both databases and their base schema: only on a data folder just made. */
function createSchemas(sqlToolPath, db, log) {
  for (const { name } of DATABASES) {
    sqlTool(sqlToolPath, db, name, ['create-database']);
    sqlTool(sqlToolPath, db, name, ['setup-schema', '-v', '0.0']);
  }
  log(`databases ${DATABASES.map((d) => d.name).join(', ')} created`);
}

/** Brings both schemas to the tool's (so the server's) version; a no-op when they are. */
function updateSchemas(sqlToolPath, db, log) {
  for (const { name, schema } of DATABASES) sqlTool(sqlToolPath, db, name, ['update-schema', '--schema-name', schema]);
  log('schemas at the server version');
}

module.exports = { DATABASES, createSchemas, updateSchemas };
