import { runCli } from './run-cli';

/** Exits once what was written reached stdout and stderr: a pipe's writes may still be queued, and exiting at once cuts the output short. */
function exitWhenWritten(code: number): void {
  process.exitCode = code;
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

runCli(process.argv.slice(2)).then(exitWhenWritten, (error) => {
  process.stderr.write(`${(error as Error).stack ?? error}\n`);
  exitWhenWritten(1);
});
