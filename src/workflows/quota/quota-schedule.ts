import type { ModelLimits, QuotaGrant, QuotaUsage } from '../../common/model-limits';

export const MINUTE_MS = 60_000;
/**
 * The window grants are counted in: a minute and a second. A call reaches the provider a little
 * after its grant (the worker's timer, the request on its way), up to about a second on a busy
 * worker; counting grants over 61 s keeps any minute the provider sees within the limit despite it.
 */
export const WINDOW_MS = 61_000;

/** One call's granted start: when, and the tokens it counts (its estimate until it reports what it used). */
export interface QuotaEntry {
  at: number;
  tokens: number;
}

/** A model's quota as its workflow keeps it: the grants of the last minute and later, in order of time, and a pause after a 429. */
export interface QuotaBook {
  grants: QuotaEntry[];
  pausedUntil: number;
}

export function emptyBook(): QuotaBook {
  return { grants: [], pausedUntil: 0 };
}

/** Grants that can no longer count in any window still to come are forgotten. */
export function prune(book: QuotaBook, now: number): void {
  const from = book.grants.findIndex((grant) => grant.at > now - WINDOW_MS);
  book.grants.splice(0, from === -1 ? book.grants.length : from);
}

function tokensIn(grants: readonly QuotaEntry[], start: number, end: number): number {
  return grants.reduce((sum, grant) => (grant.at > start && grant.at <= end ? sum + grant.tokens : sum), 0);
}

/**
 * The earliest time from `now` at which a call may start: after any pause; with a request limit,
 * at least 1/rpm of the window after the latest grant and with fewer than rpm grants in the window
 * before it; with a token limit, when the window before it holds room for the call's tokens (a call
 * larger than the whole limit waits for an empty window).
 */
export function earliestStart(book: QuotaBook, now: number, tokens: number, limits: ModelLimits): number {
  let at = Math.max(now, book.pausedUntil);
  const grants = book.grants;
  const { requestsPerMinute: rpm, tokensPerMinute: tpm } = limits;
  for (let moved = true; moved; ) {
    moved = false;
    if (rpm !== undefined && grants.length > 0) {
      const spaced = grants[grants.length - 1]!.at + WINDOW_MS / rpm;
      const windowed = grants.length >= rpm ? grants[grants.length - rpm]!.at + WINDOW_MS : at;
      const next = Math.max(at, spaced, windowed);
      if (next > at) [at, moved] = [next, true];
    }
    if (tpm !== undefined) {
      const room = Math.min(tokens, tpm);
      const inWindow = grants.filter((grant) => grant.at > at - WINDOW_MS && grant.at <= at);
      if (inWindow.length > 0 && tokensIn(grants, at - WINDOW_MS, at) + room > tpm) {
        [at, moved] = [inWindow[0]!.at + WINDOW_MS, true];
      }
    }
  }
  return at;
}

/** Grants a call its start time and keeps it; `ahead` counts the grants still to come before it. */
export function grant(book: QuotaBook, now: number, tokens: number, limits: ModelLimits): QuotaGrant {
  prune(book, now);
  const at = earliestStart(book, now, tokens, limits);
  const ahead = book.grants.filter((entry) => entry.at > now).length;
  // Starts only move later (each is after the latest grant or a pause), so the list stays in order.
  const index = book.grants.findIndex((entry) => entry.at > at);
  book.grants.splice(index === -1 ? book.grants.length : index, 0, { at, tokens });
  return { at, ahead };
}

/** A call's report: its grant counts the tokens it used instead of its estimate. */
export function recordUsage(book: QuotaBook, usage: QuotaUsage): void {
  const entry = book.grants.find((grant) => grant.at === usage.at && grant.tokens === usage.estimated);
  if (entry) entry.tokens = usage.used;
}

export function pauseUntil(book: QuotaBook, until: number): void {
  book.pausedUntil = Math.max(book.pausedUntil, until);
}
