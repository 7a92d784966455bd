import type { PermissionSettings } from '../../src/common/permissions';
import { validatePermissionSettings } from '../../src/permissions';

describe('validatePermissionSettings', () => {
  it('accepts valid settings', () => {
    const settings: PermissionSettings = {
      mode: 'accept_edits',
      allow: ['read_file(src/**)', '*'],
      ask: ['request_refund'],
      deny: ['bash(rm:*)'],
      default: 'ask',
    };
    expect(validatePermissionSettings(settings)).toEqual([]);
    expect(validatePermissionSettings({})).toEqual([]);
  });

  it('lists every problem, naming the list and the rule', () => {
    const settings = {
      mode: 'yolo',
      default: 'maybe',
      allow: ['bash(git:*'],
      ask: ['ok', 'a b'],
      deny: ['x()'],
    } as unknown as PermissionSettings;
    expect(validatePermissionSettings(settings)).toEqual([
      "Unknown permission mode 'yolo' (expected one of default, accept_edits, explore, bypass, dont_ask)",
      "Unknown default permission 'maybe' (expected one of allow, ask, deny)",
      "allow: Invalid permission rule 'bash(git:*': missing closing ')'",
      "ask: Invalid permission rule 'a b': tool name 'a b' must not contain whitespace",
      "deny: Invalid permission rule 'x()': empty pattern in 'x()'; write 'x' to match every call",
    ]);
  });
});
