import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';

/**
 * Where the Slack message of each waiting call is kept: a JSON file the endpoint owns, written
 * whole through a temporary file and a rename (a crash leaves the old file or the new, never half).
 *
 * Why a file and not the run or a lookup: Slack assigns a message's `ts` when it is posted, so it
 * cannot be derived from the call; finding it again in the channel's history needs another scope
 * and a scan; and writing it into the run would add a signal to every approval's history for the
 * sake of one surface. The file survives a restart of the endpoint, which is what the updates of
 * calls answered elsewhere need. One endpoint process per file.
 */
export interface CallMessage {
  workflowId: string;
  callId: string;
  tool: string;
  agent: string;
  channel: string;
  ts: string;
  /** argumentsDigest of the arguments the message showed; sent with every answer given from it. */
  argumentsDigest: string;
  /** The rules' version the call was asked under (runs that publish one); sent with every answer too. */
  rulesVersion?: string;
  postedAt: string;
  /** Set once the message says how the call was answered. */
  answered?: { outcome: string; answeredBy?: string; at: string };
  /** Notices already posted to the message's thread (`event@at`), so a notice delivered twice is posted once. */
  threaded: string[];
}

const name = z.string().min(1).max(1_000);
const callMessageSchema = z.object({
  workflowId: name,
  callId: name,
  tool: name,
  agent: name,
  channel: name,
  ts: name,
  argumentsDigest: z.string().regex(/^[0-9a-f]{64}$/),
  rulesVersion: z.string().regex(/^[0-9a-f]{64}$/).optional(),
  postedAt: z.string().max(64),
  answered: z.object({ outcome: name, answeredBy: name.optional(), at: z.string().max(64) }).optional(),
  threaded: z.array(z.string().max(200)).max(1_000).default([]),
});
const storeFileSchema = z.object({ v: z.literal(1), messages: z.record(callMessageSchema) });

/** Answered messages are forgotten this long after they were answered. */
const KEEP_ANSWERED_MS = 7 * 24 * 3600_000;

export function callKey(workflowId: string, callId: string): string {
  return JSON.stringify([workflowId, callId]);
}

export class MessageStore {
  private messages = new Map<string, CallMessage>();
  private writing: Promise<void> = Promise.resolve();
  private locks = new Map<string, Promise<unknown>>();

  private constructor(private readonly file: string) {}

  /** The store of `file`: empty when it does not exist yet; a file that is not the store's is an error, never overwritten. */
  static async open(file: string): Promise<MessageStore> {
    const store = new MessageStore(file);
    let text: string | undefined;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (text !== undefined) {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (error) {
        throw new Error(`${file} is not the Slack endpoint's message file (not JSON: ${(error as Error).message})`);
      }
      const parsed = storeFileSchema.safeParse(json);
      if (!parsed.success) throw new Error(`${file} is not the Slack endpoint's message file: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      for (const [key, message] of Object.entries(parsed.data.messages)) store.messages.set(key, message);
    }
    return store;
  }

  get(workflowId: string, callId: string): CallMessage | undefined {
    return this.messages.get(callKey(workflowId, callId));
  }

  /** The messages that do not yet say how their call was answered. */
  open(): CallMessage[] {
    return [...this.messages.values()].filter((message) => !message.answered);
  }

  /** Keeps `message` (replacing the call's) and writes the file before it resolves. */
  async put(message: CallMessage): Promise<void> {
    this.messages.set(callKey(message.workflowId, message.callId), message);
    await this.save();
  }

  /** Runs `work` alone for one call: a click and a notice of the same call never interleave. */
  exclusive<T>(workflowId: string, callId: string, work: () => Promise<T>): Promise<T> {
    const key = callKey(workflowId, callId);
    const before = this.locks.get(key) ?? Promise.resolve();
    const mine = before.then(work, work);
    const tail = mine.catch(() => undefined);
    this.locks.set(key, tail);
    void tail.then(() => {
      if (this.locks.get(key) === tail) this.locks.delete(key);
    });
    return mine;
  }

  private save(): Promise<void> {
    const now = Date.now();
    for (const [key, message] of this.messages) {
      if (message.answered && now - Date.parse(message.answered.at) > KEEP_ANSWERED_MS) this.messages.delete(key);
    }
    const text = JSON.stringify({ v: 1, messages: Object.fromEntries(this.messages) });
    const temporary = `${this.file}.${process.pid}.tmp`;
    const write = async () => {
      await mkdir(dirname(this.file), { recursive: true });
      await writeFile(temporary, text, { mode: 0o600 });
      await rename(temporary, this.file);
    };
    this.writing = this.writing.then(write, write);
    return this.writing;
  }
}
