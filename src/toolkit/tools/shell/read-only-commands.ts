import type { OperandSpec, Operands } from './operands';

/**
 * Commands that only read. `paths`: every operand may be a file; `pattern`: the first
 * operand is a pattern or program unless one is given by option; `none`: operands are not
 * files. `writes` spots the options or operand counts that make the command write after all.
 */
export interface ReadOnlyCommand extends OperandSpec {
  operands: 'paths' | 'pattern' | 'none';
  /** Options that supply the pattern, so that the first operand is a file. */
  patternOptions?: string[];
  writes?: (parsed: Operands) => boolean;
}

const LINES = { '-n': 'other', '-c': 'other' } as const;
const hasOption = (parsed: Operands, ...names: string[]): boolean =>
  parsed.options.some((option) => names.some((name) => option === name || option.startsWith(`${name}=`)));

export const READ_ONLY_COMMANDS: Record<string, ReadOnlyCommand> = {
  ls: { operands: 'paths', valued: { '-I': 'other', '-w': 'other' } },
  cat: { operands: 'paths' },
  head: { operands: 'paths', valued: LINES },
  tail: { operands: 'paths', valued: { ...LINES, '-s': 'other' } },
  wc: { operands: 'paths' },
  stat: { operands: 'paths', valued: { '-c': 'other', '--format': 'other' } },
  file: { operands: 'paths', writes: (p) => hasOption(p, '-C', '--compile') },
  du: { operands: 'paths', valued: { '-d': 'other' } },
  df: { operands: 'paths' },
  tree: { operands: 'paths', valued: { '-L': 'other', '-I': 'other', '-P': 'other' }, writes: (p) => hasOption(p, '-o') },
  nl: { operands: 'paths' },
  tac: { operands: 'paths' },
  od: { operands: 'paths', valued: { '-A': 'other', '-t': 'other', '-N': 'other', '-j': 'other' } },
  hexdump: { operands: 'paths', valued: { '-n': 'other', '-s': 'other', '-e': 'other' } },
  xxd: { operands: 'paths', valued: { '-l': 'other', '-s': 'other', '-c': 'other', '-g': 'other' }, writes: (p) => hasOption(p, '-r') || p.operands.length > 1 },
  strings: { operands: 'paths', valued: { '-n': 'other' } },
  cut: { operands: 'paths', valued: { '-d': 'other', '-f': 'other', '-c': 'other', '-b': 'other' } },
  sort: { operands: 'paths', valued: { '-k': 'other', '-t': 'other', '-S': 'other' }, writes: (p) => hasOption(p, '-o', '--output', '-T', '--temporary-directory') },
  uniq: { operands: 'paths', valued: { '-f': 'other', '-s': 'other', '-w': 'other' }, writes: (p) => p.operands.length > 1 },
  diff: { operands: 'paths' },
  cmp: { operands: 'paths' },
  comm: { operands: 'paths' },
  column: { operands: 'paths', valued: { '-s': 'other', '-t': 'other' } },
  fold: { operands: 'paths', valued: { '-w': 'other' } },
  rev: { operands: 'paths' },
  realpath: { operands: 'paths' },
  readlink: { operands: 'paths' },
  md5sum: { operands: 'paths' },
  sha1sum: { operands: 'paths' },
  sha256sum: { operands: 'paths' },
  sha512sum: { operands: 'paths' },
  cksum: { operands: 'paths' },
  grep: {
    operands: 'pattern',
    patternOptions: ['-e', '-f', '--regexp', '--file'],
    valued: { '-e': 'other', '-f': 'path', '-m': 'other', '-A': 'other', '-B': 'other', '-C': 'other' },
  },
  egrep: { operands: 'pattern', patternOptions: ['-e', '-f'], valued: { '-e': 'other', '-f': 'path', '-m': 'other', '-A': 'other', '-B': 'other', '-C': 'other' } },
  fgrep: { operands: 'pattern', patternOptions: ['-e', '-f'], valued: { '-e': 'other', '-f': 'path', '-m': 'other', '-A': 'other', '-B': 'other', '-C': 'other' } },
  rg: {
    operands: 'pattern',
    patternOptions: ['-e', '-f', '--regexp', '--file'],
    valued: { '-e': 'other', '-f': 'path', '-g': 'other', '-t': 'other', '-T': 'other', '-m': 'other', '-A': 'other', '-B': 'other', '-C': 'other', '-M': 'other', '-j': 'other' },
    writes: (p) => hasOption(p, '--pre', '--pre-glob'),
  },
  jq: { operands: 'pattern', patternOptions: ['-f', '--from-file'], valued: { '-f': 'path', '--arg': 'other', '--argjson': 'other' } },
  echo: { operands: 'none' },
  printf: { operands: 'none' },
  pwd: { operands: 'none' },
  whoami: { operands: 'none' },
  id: { operands: 'none' },
  date: { operands: 'none', writes: (p) => hasOption(p, '-s', '--set') },
  uname: { operands: 'none' },
  hostname: { operands: 'none', writes: (p) => p.operands.length > 0 || p.options.length > 0 },
  true: { operands: 'none' },
  false: { operands: 'none' },
  ':': { operands: 'none' },
  test: { operands: 'none' },
  '[': { operands: 'none' },
  '[[': { operands: 'none' },
  seq: { operands: 'none' },
  sleep: { operands: 'none' },
  expr: { operands: 'none' },
  tr: { operands: 'none' },
  basename: { operands: 'none' },
  dirname: { operands: 'none' },
  printenv: { operands: 'none' },
  env: { operands: 'none' },
  type: { operands: 'none' },
  which: { operands: 'none' },
  ps: { operands: 'none' },
  cd: { operands: 'none' },
  pushd: { operands: 'none' },
  popd: { operands: 'none' },
};
