import { z, type ZodIssue } from 'zod';
import { durationMs, DURATION_EXAMPLES } from '../common/duration';

const toolPatterns = z.array(z.string().min(1, 'a tool name or * pattern must not be empty'));

const duration = z.union([z.number(), z.string()]).refine((value) => durationMs(value) !== undefined, {
  message: `expected a positive duration (${DURATION_EXAMPLES})`,
});

const perServer = {
  /** Only tools matching one of these names or `*` globs are offered. */
  enableTools: toolPatterns.optional(),
  /** Tools matching one of these are never offered (beats enableTools). */
  disableTools: toolPatterns.optional(),
  /** Request timeout of one tool call: milliseconds, '30s', '2 hours', '1d'. Default 120 s. */
  timeout: duration.optional(),
  /** Permission of tools whose annotations do not say read-only or destructive. Default 'ask'. */
  permission: z.enum(['allow', 'ask', 'deny']).optional(),
  /** Always name the tools `<server>__<tool>`. */
  prefix: z.boolean().optional(),
  /** Keep the entry but do not start the server. */
  disabled: z.boolean().optional(),
};

export const stdioServerSchema = z
  .object({
    transport: z.literal('stdio').optional(),
    command: z.string().min(1, 'command must not be empty'),
    args: z.array(z.string()).optional(),
    env: z.record(z.string()).optional(),
    cwd: z.string().min(1).optional(),
    ...perServer,
  })
  .strict();

export const httpServerSchema = z
  .object({
    /** Streamable HTTP ('http', the default) or the older HTTP+SSE transport ('sse'). */
    transport: z.enum(['http', 'sse']).optional(),
    url: z
      .string()
      .url()
      .refine((url) => /^https?:\/\//i.test(url), { message: 'url must start with http:// or https://' }),
    headers: z.record(z.string()).optional(),
    ...perServer,
  })
  .strict();

/** A server entry is stdio when it has `command`, HTTP when it has `url`. */
export const mcpServerSchema = z.unknown().transform((value, ctx) => {
  const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
  if (!isObject || !('command' in value || 'url' in value)) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      message: 'a server needs either "command" (stdio) or "url" (http or sse)',
    });
    return z.NEVER;
  }
  const schema = 'url' in value && !('command' in value) ? httpServerSchema : stdioServerSchema;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  for (const issue of explainIssues(parsed.error.issues, Object.keys(schema.shape))) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, ...issue });
  }
  return z.NEVER;
});

export const mcpServersSchema = z.record(mcpServerSchema);

export const toolsFileSchema = z
  .object({
    /** Tool-name filter (`*` globs): the tools agents may be offered; empty means all. */
    allow: z.array(z.string()).optional(),
    /** Tool-name filter (`*` globs): tools never offered; deny beats allow. */
    deny: z.array(z.string()).optional(),
    mcpServers: mcpServersSchema.optional(),
  })
  .strict();

/** One issue per unknown key, at the key itself, with a hint when only the spelling differs. */
export function explainIssues(issues: ZodIssue[], knownKeys: string[]): Array<{ path: Array<string | number>; message: string }> {
  return issues.flatMap((issue) => {
    if (issue.code !== z.ZodIssueCode.unrecognized_keys) return [{ path: issue.path, message: issue.message }];
    return issue.keys.map((key) => {
      const near = knownKeys.find((known) => known.toLowerCase() === key.toLowerCase());
      return { path: [...issue.path, key], message: `unknown setting '${key}'${near ? ` (did you mean '${near}'?)` : ''}` };
    });
  });
}

export type StdioServerInput = z.input<typeof stdioServerSchema>;
export type HttpServerInput = z.input<typeof httpServerSchema>;
/** One server as written in tools.json or passed in code. */
export type McpServerInput = StdioServerInput | HttpServerInput;
export type McpServersInput = Record<string, McpServerInput>;
