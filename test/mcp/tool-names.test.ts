import { assignToolNames, toFunctionName } from '../../src/mcp/tool-names';

const VALID = /^[a-zA-Z0-9_-]{1,64}$/;
const none = () => false;

describe('toFunctionName', () => {
  it('keeps valid names and replaces other characters with _', () => {
    expect(toFunctionName('read_file')).toBe('read_file');
    expect(toFunctionName('get-sum')).toBe('get-sum');
    expect(toFunctionName('dotted.tool name/x')).toBe('dotted_tool_name_x');
  });

  it('truncates long names with a stable hash suffix', () => {
    const long = 'a_tool_with_a_name_so_long_that_it_does_not_fit_into_an_openai_function_name';
    const name = toFunctionName(long);
    expect(name).toMatch(VALID);
    expect(name).toHaveLength(64);
    expect(name.startsWith(long.slice(0, 55))).toBe(true);
    expect(toFunctionName(long)).toBe(name);
    expect(toFunctionName(`${long}_2`)).not.toBe(name);
  });
});

describe('assignToolNames', () => {
  it('keeps own names when nothing clashes', () => {
    const names = assignToolNames(
      [
        { server: 'fs', tool: 'read_file', alwaysPrefix: false },
        { server: 'web', tool: 'fetch', alwaysPrefix: false },
      ],
      none,
    );
    expect(names).toEqual(['read_file', 'fetch']);
  });

  it('prefixes a tool whose name a code tool already has', () => {
    const names = assignToolNames([{ server: 'fs', tool: 'read_file', alwaysPrefix: false }], (name) => name === 'read_file');
    expect(names).toEqual(['fs__read_file']);
  });

  it('prefixes both tools when two servers offer the same name', () => {
    const names = assignToolNames(
      [
        { server: 'a', tool: 'echo', alwaysPrefix: false },
        { server: 'b', tool: 'echo', alwaysPrefix: false },
        { server: 'b', tool: 'other', alwaysPrefix: false },
      ],
      none,
    );
    expect(names).toEqual(['a__echo', 'b__echo', 'other']);
  });

  it('always prefixes the tools of a server with prefix: true', () => {
    expect(assignToolNames([{ server: 'gh', tool: 'search', alwaysPrefix: true }], none)).toEqual(['gh__search']);
  });

  it('sanitizes server and tool names in prefixes', () => {
    const names = assignToolNames([{ server: 'my server', tool: 'x.y', alwaysPrefix: true }], none);
    expect(names).toEqual(['my_server__x_y']);
  });

  it('disambiguates names that only differ by invalid characters, letting the exact name keep its own', () => {
    const names = assignToolNames(
      [
        { server: 's', tool: 'a.b', alwaysPrefix: false },
        { server: 's', tool: 'a_b', alwaysPrefix: false },
      ],
      none,
    );
    expect(names[1]).toBe('a_b');
    expect(names[0]).toMatch(/^a_b_[0-9a-f]{8}$/);
  });

  it('adds a hash when even the prefixed name is taken, and never returns a taken name', () => {
    const taken = new Set(['echo', 'a__echo']);
    const names = assignToolNames([{ server: 'a', tool: 'echo', alwaysPrefix: false }], (name) => taken.has(name));
    expect(names[0]).toMatch(/^a__echo_[0-9a-f]{8}$/);
    expect(taken.has(names[0]!)).toBe(false);
  });
});
