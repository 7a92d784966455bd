/** `file(line,col): error TSxxxx` of each diagnostic tsc printed, without the message. */
export function typeErrorLocations(tscOutput: string): string[] {
  const locations: string[] = [];
  for (const line of tscOutput.split('\n')) {
    const match = /^(\S[^(]*)\((\d+),(\d+)\): error (TS\d+):/.exec(line);
    if (match) locations.push(`${match[1]}(${match[2]},${match[3]}): ${match[4]}`);
  }
  return locations.sort();
}
