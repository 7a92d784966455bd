import type { CliCommand, CliOption } from './command';
import { cliInvocation } from '../text/invocation';

const WIDTH = 28;

function optionLabel(name: string, option: CliOption): string {
  const flag = `${option.short ? `-${option.short}, ` : ''}--${name}`;
  return option.type === 'string' ? `${flag} ${option.valueName ?? 'VALUE'}` : flag;
}

function optionLine(name: string, option: CliOption): string {
  const notes = [
    ...(option.choices ? [`one of: ${option.choices.join(', ')}`] : []),
    ...(option.env ? [`env ${option.env}`] : []),
    ...(option.defaultText ? [`default: ${option.defaultText}`] : []),
  ];
  const text = `${option.description ?? ''}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`;
  const label = optionLabel(name, option);
  return label.length < WIDTH - 2 ? `  ${label.padEnd(WIDTH - 2)}${text}` : `  ${label}\n  ${' '.repeat(WIDTH - 2)}${text}`;
}

function optionLines(options: Record<string, CliOption>): string[] {
  return Object.entries(options).map(([name, option]) => optionLine(name, option));
}

/** `durable-agent --help`: every command with its summary. */
export function overviewHelp(commands: CliCommand[], common: Record<string, CliOption>): string {
  const bin = cliInvocation();
  const width = Math.max(...commands.map((c) => c.name.length)) + 2;
  return [
    `Usage: ${bin} <command> [options]`,
    '',
    'Durable LLM agents on Temporal: start runs, follow them, answer their approvals.',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    'Options of every command:',
    ...optionLines(common),
    '',
    `Run '${bin} <command> --help' for a command's options and examples; '${bin} --version' prints the version.`,
    'Exit codes: 0 ok, 1 failed, 2 usage error, 3 the run waits for a person (result without --wait),',
    '4 waiting runs could not be read (pending).',
  ].join('\n');
}

/** `durable-agent <command> --help`: usage, what it does, every option, examples. */
export function commandHelp(command: CliCommand, common: Record<string, CliOption>): string {
  const bin = cliInvocation();
  const lines = [`Usage: ${bin} ${command.usage}`, '', command.summary];
  if (command.details) lines.push('', command.details);
  if (Object.keys(command.options).length > 0) lines.push('', 'Options:', ...optionLines(command.options));
  lines.push('', 'Options of every command:', ...optionLines(common));
  if (command.examples?.length) lines.push('', 'Examples:', ...command.examples.map((example) => `  ${bin} ${example}`));
  return lines.join('\n');
}
