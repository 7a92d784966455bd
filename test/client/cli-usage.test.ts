import { COMMANDS, COMMON_OPTIONS } from '../../src/cli/run-cli';
import { didYouMean } from '../../src/cli/did-you-mean';
import { colorEnabled } from '../../src/text/style';
import { formatEvent } from '../../src/text/format-event';
import { runCliCaptured } from '../helpers/cli-capture';

describe('CLI help, typos and colour (no Temporal needed)', () => {
  test('--help lists every command; each command has real help: options, defaults, environment variables, examples', async () => {
    const overview = await runCliCaptured(['--help']);
    expect(overview.code).toBe(0);
    for (const command of COMMANDS) expect(overview.out.join('\n')).toMatch(new RegExp(`^  ${command.name} +\\S`, 'm'));

    for (const command of COMMANDS) {
      const help = await runCliCaptured([command.name, '--help']);
      const text = help.out.join('\n');
      expect(help.code).toBe(0);
      expect(text.startsWith(`Usage: durable-agent ${command.usage}`)).toBe(true);
      for (const name of Object.keys(command.options)) expect(text).toContain(`--${name}`);
      expect(command.examples?.length).toBeGreaterThan(0);
      for (const example of command.examples!) expect(text).toContain(`  durable-agent ${example}`);
      expect(text).toContain('--address HOST:PORT       Temporal frontend (env TEMPORAL_ADDRESS; default: 127.0.0.1:7233)');
    }
    expect(await runCliCaptured(['help', 'result'])).toMatchObject({ code: 0, out: expect.arrayContaining(['Usage: durable-agent result ID [--wait] [--json]']) });
  });

  test('--version prints the package version; no example in any help names a demo agent', async () => {
    const { version } = require('../../package.json') as { version: string };
    for (const flag of ['--version', '-v']) expect(await runCliCaptured([flag])).toMatchObject({ code: 0, out: [`durable-agent ${version}`] });
    const demoAgents = ['ecommerce-cs', 'coder', 'researcher', 'research-lead', 'chat-shop'];
    for (const command of COMMANDS) {
      for (const example of command.examples ?? []) for (const agent of demoAgents) expect({ command: command.name, example, names: example.includes(agent) }).toEqual({ command: command.name, example, names: false });
    }
  });

  test('commands that build agents take them from --module (or AGENT_MODULE) or --demo, never the demo by default', async () => {
    const saved = process.env.AGENT_MODULE;
    delete process.env.AGENT_MODULE;
    try {
      for (const name of ['tools', 'mcp']) {
        const result = await runCliCaptured([name]);
        expect({ name, code: result.code, err: result.err.join('\n') }).toEqual({ name, code: 2, err: expect.stringContaining('which agents? Give --module PATH (or AGENT_MODULE), or --demo for the demo agents') });
      }
    } finally {
      if (saved !== undefined) process.env.AGENT_MODULE = saved;
    }
  });

  test('every option of every command says what it does', () => {
    for (const command of COMMANDS) {
      for (const [name, option] of Object.entries({ ...command.options, ...COMMON_OPTIONS })) {
        expect({ command: command.name, name, description: option.description }).toEqual({ command: command.name, name, description: expect.stringMatching(/\S/) });
      }
    }
  });

  test('typos get a "did you mean" and a short usage line, not the whole help (exit 2)', async () => {
    const command = await runCliCaptured(['lsit']);
    expect(command.code).toBe(2);
    expect(command.err.join('\n')).toBe("Unknown command 'lsit'. Did you mean 'list'?\nUsage: durable-agent <command> [options]; 'durable-agent --help' lists the commands.");
    const option = await runCliCaptured(['list', '--jsno']);
    expect(option.code).toBe(2);
    expect(option.err[0]).toBe("Unknown option '--jsno'. Did you mean '--json'?");
    expect(option.err).toContain("'durable-agent list --help' shows every option.");
    expect((await runCliCaptured(['frobnicate'])).err[0]).toBe("Unknown command 'frobnicate'.");
    expect(didYouMean('aprove', ['approve', 'deny'])).toBe(" Did you mean 'approve'?");
    expect(didYouMean('x', ['approve', 'deny'])).toBe('');
  });

  test('list --status takes only the run statuses: another value is a usage error (exit 2) that lists them and suggests the closest', async () => {
    const statuses = 'running, awaiting_approval, awaiting_external, completed, failed, max_iterations, budget_exhausted, cancelled, idle, ended';
    const typo = await runCliCaptured(['list', '--status', 'awaiting_aproval']);
    expect(typo.code).toBe(2);
    expect(typo.err[0]).toBe(`Unknown value 'awaiting_aproval' for --status (one of ${statuses}). Did you mean 'awaiting_approval'?`);
    expect(typo.err).toContain('Usage: durable-agent list [--agent NAME] [--status STATUS] [--forks-of ID] [--schedule ID] [--limit N] [--json]');
    const bogus = await runCliCaptured(['list', '--status', 'bogus', '--json']);
    expect(bogus).toMatchObject({ code: 2, out: [] });
    expect(bogus.err[0]).toBe(`Unknown value 'bogus' for --status (one of ${statuses}).`);
    expect((await runCliCaptured(['list', '--status=', '--json'])).code).toBe(2);
    const help = (await runCliCaptured(['list', '--help'])).out.join('\n');
    expect(help).toMatch(new RegExp(`--status STATUS +only runs with this status; .*\\(one of: ${statuses}\\)`));
  });

  test('every option with a fixed set of values declares it: parsing refuses any other value and help lists them', async () => {
    for (const command of COMMANDS) {
      for (const [name, option] of Object.entries({ ...command.options, ...COMMON_OPTIONS })) {
        // A description that lists values ("a, b, c" after a colon, or "one of") belongs in `choices`.
        if (!option.choices) {
          expect({ command: command.name, name, description: option.description }).not.toEqual(
            expect.objectContaining({ description: expect.stringMatching(/(: [a-z_-]+(, [a-z_-]+)+|\bone of\b)/) }),
          );
          continue;
        }
        const refused = await runCliCaptured([command.name, `--${name}`, 'no-such-value', ...(option.multiple ? [`--${name}`, option.choices[0]!] : [])]);
        expect({ command: command.name, name, code: refused.code, err: refused.err[0] }).toEqual({
          command: command.name,
          name,
          code: 2,
          err: `Unknown value 'no-such-value' for --${name} (one of ${option.choices.join(', ')}).`,
        });
        expect((await runCliCaptured([command.name, '--help'])).out.join('\n')).toContain(`one of: ${option.choices.join(', ')}`);
      }
    }
  });

  test('the exit codes are documented: 4 when pending could not read a waiting run', async () => {
    expect((await runCliCaptured(['--help'])).out.join('\n')).toContain('4 waiting runs could not be read (pending).');
    expect((await runCliCaptured(['pending', '--help'])).out.join('\n')).toContain('Then the exit code is 4.');
  });

  test('watch shows an empty reply as an empty reply, not as an answer', () => {
    const base = { type: 'model_call_finished', iteration: 1, model: 'm', usage: { promptTokens: 1, completionTokens: 0, totalTokens: 1 }, seq: 1, at: '2026-01-01T00:00:00.000Z' } as const;
    expect(formatEvent({ ...base, toolCalls: 0, text: '' }, 'w')).toContain('model m: an empty reply (no text, no tool call)');
    expect(formatEvent({ ...base, toolCalls: 0, text: 'Hi.' }, 'w')).toContain('model m: answer "Hi."');
  });

  test('colour only on a terminal, never with NO_COLOR or a dumb terminal', () => {
    expect(colorEnabled({ isTTY: true }, {})).toBe(true);
    expect(colorEnabled({ isTTY: false }, {})).toBe(false);
    expect(colorEnabled({}, {})).toBe(false);
    expect(colorEnabled({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
    const event = { type: 'run_finished', status: 'failed', output: 'boom', seq: 1, at: '2026-01-01T00:00:00.000Z' } as const;
    expect(formatEvent(event, 'w')).not.toContain('\u001b[');
    const { createColors } = require('picocolors') as typeof import('picocolors');
    expect(formatEvent(event, 'w', createColors(true))).toMatch(/^\u001b\[31m.*boom\u001b\[39m$/);
  });
});
