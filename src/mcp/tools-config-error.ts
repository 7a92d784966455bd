import type { JsonLocation, JsonPath } from './json-locations';

export interface ToolsConfigProblem {
  /** e.g. `mcpServers.github.env.TOKEN`; empty for the whole document. */
  path: string;
  message: string;
  location?: JsonLocation;
}

/** A tools.json (or in-code MCP configuration) that cannot be used; the message says where and why. */
export class ToolsConfigError extends Error {
  constructor(
    readonly file: string | undefined,
    readonly problems: ToolsConfigProblem[],
  ) {
    super(formatProblems(file, problems));
    this.name = 'ToolsConfigError';
  }
}

export function formatJsonPath(path: JsonPath): string {
  return path.reduce<string>((text, part) => {
    if (typeof part === 'number') return `${text}[${part}]`;
    const plain = /^[A-Za-z_$][\w$-]*$/.test(part);
    if (!plain) return `${text}[${JSON.stringify(part)}]`;
    return text === '' ? part : `${text}.${part}`;
  }, '');
}

function formatProblem(file: string | undefined, problem: ToolsConfigProblem): string {
  const where = [file, problem.location?.line, problem.location?.column].filter((part) => part !== undefined).join(':');
  const subject = problem.path === '' ? problem.message : `${problem.path}: ${problem.message}`;
  return where === '' ? subject : `${where}: ${subject}`;
}

function formatProblems(file: string | undefined, problems: ToolsConfigProblem[]): string {
  if (problems.length === 1) return formatProblem(file, problems[0]!);
  const source = file ?? 'MCP configuration';
  return [`${source}: ${problems.length} problems:`, ...problems.map((problem) => `  ${formatProblem(file, problem)}`)].join('\n');
}
