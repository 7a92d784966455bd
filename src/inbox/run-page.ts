import type { RunSummary } from '../client/agent-client';
import type { AgentEvent } from '../common/events';
import { formatEvent } from '../text/format-event';
import { html, type SafeHtml } from './html';
import { page, when } from './layout';
import type { RunView } from './run-view';

export function runPath(workflowId: string): string {
  return `/runs/${encodeURIComponent(workflowId)}`;
}

/** After event `at` (0: before any), a fork with, when given, another last message and another model. */
function forkForm(view: RunView, at: number): SafeHtml {
  return html`<details class="fork"><summary>fork from here</summary>
<form method="post" action="${runPath(view.workflowId)}/fork" data-fork="${String(at)}">
  <input type="hidden" name="csrf" value="${view.csrf}">
  <input type="hidden" name="at" value="${String(at)}">
  <textarea name="message" rows="2" aria-label="message for the fork" placeholder="Optional: a user message (right after a user message it takes its place)"></textarea>
  <div class="actions">
    <input name="model" aria-label="model for the fork" placeholder="Optional: another model">
    <button type="submit">Fork after event ${String(at)}</button>
  </div>
</form></details>`;
}

function eventLine(view: RunView, event: AgentEvent): SafeHtml {
  const child = event.type === 'subagent_started' ? html` · <a href="${runPath(event.workflowId)}">its run</a>` : '';
  return html`<li data-seq="${String(event.seq)}"><span class="seq">${String(event.seq)}</span> <code>${formatEvent(event, view.workflowId)}</code>${child}${forkForm(view, event.seq)}</li>`;
}

function lineage(view: RunView): SafeHtml | '' {
  const fork = view.state?.fork;
  if (!fork) return '';
  return html`<p class="lineage" data-fork-of="${fork.workflowId}">Fork of <a href="${runPath(fork.workflowId)}">${fork.workflowId}</a> after event ${String(fork.at)}</p>`;
}

function forkItem(fork: RunSummary): SafeHtml {
  return html`<li data-fork="${fork.workflowId}"><a href="${runPath(fork.workflowId)}">${fork.workflowId}</a> · ${fork.status ?? fork.temporalStatus.toLowerCase()} · started ${when(fork.startTime.toISOString())}</li>`;
}

function facts(view: RunView): SafeHtml {
  const state = view.state;
  return html`<dl class="facts">
  ${state ? html`<dt>Agent</dt><dd>${state.agent}</dd><dt>Status</dt><dd data-status>${state.status}</dd>` : ''}
  <dt>Run</dt><dd><code>${view.workflowId}</code> · <a href="${view.webUiLink}" target="_blank" rel="noopener noreferrer">Temporal Web UI</a></dd>
</dl>`;
}

/** The run followed live, on the page at its own address only (the stream's script reads the run id from it). */
const live = html`<section class="card"><h2>Live</h2><p id="run-status" role="status">connecting…</p><ol id="run-steps"></ol></section>
<script src="/run-stream.js" defer></script>`;

/**
 * A run's page: its facts and lineage, its events as they are now, each with a form that forks
 * the run after it, the runs forked from it, and the run followed live (the stream's script fills
 * `#run-steps` and `#run-status`). After a refused post it is shown at the form's address, without the live part.
 */
export function runPage(view: RunView): SafeHtml {
  return page(
    `Run ${view.workflowId}`,
    view.identity,
    html`<main data-run="${view.workflowId}">
<p><a href="/">← every waiting call</a></p>
<h2 id="run-title">Run ${view.workflowId}</h2>
${lineage(view)}
${view.refusal ? html`<p class="refusal" role="alert" data-refusal>${view.refusal}</p>` : ''}
${view.unreadable ? html`<p class="refusal" role="alert" data-unreadable>${view.unreadable}</p>` : ''}
<section class="card">${facts(view)}</section>
${view.forks.length > 0 ? html`<section class="card"><h2>Forks</h2><ul class="forks">${view.forks.map(forkItem)}</ul></section>` : ''}
<section class="card"><h2>Events</h2>
<p class="muted">As they were when the page was read; a fork starts from the conversation as it stood after the event, and runs nothing again that ran before it.</p>
<ol class="events">
<li data-seq="0"><span class="seq">0</span> <span class="muted">the start, before any event</span>${forkForm(view, 0)}</li>
${view.events.map((event) => eventLine(view, event))}
</ol></section>
${view.refusal ? '' : live}
</main>`,
  );
}
