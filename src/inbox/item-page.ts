import type { JsonSchema } from '../common/tools';
import { BUDGET_TOOL } from '../common/budget';
import { html, raw, type SafeHtml } from './html';
import { page, when } from './layout';
import { conversationView, type ConversationPage } from './conversation-view';
import { hasFields, schemaFields, type FieldErrors } from './schema-form';
import { itemKey, itemPath, type OpenCall } from './inbox-calls';
import type { CallAnswer } from '../common/tool-call-record';
import type { WaitingCall } from '../common/contracts/published-waits';
import { approvalProgress } from '../text/approval-progress';

export interface ItemView {
  holderId: string;
  callId: string;
  /** The call, while it waits. */
  open?: OpenCall;
  /** The page of the holder run's conversation shown. */
  conversation?: ConversationPage;
  identity: string;
  csrf: string;
  webUiLink: string;
  /** What the last post did: done, or why it was refused (by the page's check or by the run). */
  done?: string;
  refusal?: string;
  errors?: FieldErrors;
  /** The posted arguments, to show again after a refusal. */
  input?: unknown;
  rawJson?: string;
  answer?: CallAnswer;
}

/** JSON inside a script element: `<` escaped, so no `</script>` in a schema's text can end it. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

function facts(view: ItemView, item: WaitingCall): SafeHtml {
  return html`<dl class="facts">
  <dt>Agent</dt><dd>${item.agent}${item.top ? html` <span class="muted">(sub-agent; started from ${item.top.agent ?? 'a run'}, run <code>${item.top.workflowId}</code>)</span>` : ''}</dd>
  <dt>Started by</dt><dd>${item.startedBy ?? html`<span class="muted">not named</span>`}</dd>
  <dt>Tool</dt><dd><code>${item.tool}</code></dd>
  <dt>Waits for</dt><dd>${item.kind === 'approval' ? 'approval' : 'an external result'}, since ${when(item.since)}</dd>
  ${approvalProgress(item) ? html`<dt>Who answers</dt><dd data-progress>${approvalProgress(item)}</dd>` : ''}
  ${item.reason ? html`<dt>Why it asks</dt><dd data-reason>${item.reason}</dd>` : ''}
  ${item.suggestedRule ? html`<dt>Rule</dt><dd><code>${item.suggestedRule}</code></dd>` : ''}
  ${item.repeats ? html`<dt>Repeats</dt><dd class="warning" data-repeats>call <code>${item.repeats.callId}</code> of this run already ran with the same arguments: ${item.repeats.preview}</dd>` : ''}
  <dt>Run</dt><dd><code>${item.workflowId}</code> · <a href="${view.webUiLink}" target="_blank" rel="noopener noreferrer">Temporal Web UI</a> · <a href="/runs/${encodeURIComponent(item.workflowId)}" data-follow>follow it live</a></dd>
</dl>`;
}

function titleOf(item: WaitingCall): SafeHtml {
  if (item.tool === BUDGET_TOOL) return html`The run's budget is reached: allow more? <code>${item.tool}</code>`;
  return html`<code>${item.tool}</code> waits for ${item.kind === 'approval' ? 'approval' : 'its result'}`;
}

function approvalForm(view: ItemView, item: WaitingCall, schema: JsonSchema | undefined): SafeHtml {
  const input = view.input ?? item.input;
  const errors = view.errors ?? {};
  const whole = errors[''];
  const rawJson = view.rawJson ?? JSON.stringify(input, null, 2);
  return html`<form method="post" action="${itemPath(item)}" novalidate data-answer>
  <input type="hidden" name="csrf" value="${view.csrf}">
  ${item.argumentsDigest ? html`<input type="hidden" name="digest" value="${item.argumentsDigest}">` : ''}
  ${item.rulesVersion ? html`<input type="hidden" name="rules_version" value="${item.rulesVersion}">` : ''}
  ${hasFields(schema) ? html`<script type="application/json" id="tool-schema">${raw(scriptJson(schema))}</script>` : ''}
  <section class="card"><h2>Arguments</h2>
    <p id="not-sent" class="refusal" role="alert" hidden>The edited arguments do not fit the tool's schema; nothing was sent.</p>
    ${hasFields(schema) ? schemaFields(schema, input, errors) : html`<p class="muted">This tool's schema is not known to the inbox: edit the JSON below.</p>`}
    ${whole ? html`<p class="error" role="alert">${whole}</p>` : ''}
    <details${view.rawJson !== undefined || !hasFields(schema) ? html` open` : ''}><summary>Raw JSON</summary>
      <textarea class="json" name="raw" rows="6" aria-label="arguments as JSON">${rawJson}</textarea>
      <div class="actions"><button type="submit" name="action" value="approve-json">Approve with this JSON</button></div>
    </details>
    <div class="actions">
      <button type="submit" class="primary" name="action" value="approve">Approve</button>
      ${item.suggestedRule ? html`<label><input type="checkbox" name="remember" value="session"> remember for this run (allow <code>${item.suggestedRule}</code>)</label>` : ''}
    </div>
  </section>
  <section class="card"><h2>Deny</h2>
    <textarea name="reason" rows="2" placeholder="Why (the agent reads it)" aria-label="reason"></textarea>
    <div class="actions"><button type="submit" class="danger" name="action" value="deny">Deny</button></div>
  </section>
</form>`;
}

function externalForm(view: ItemView, item: WaitingCall): SafeHtml {
  return html`<form method="post" action="${itemPath(item)}" novalidate data-answer>
  <input type="hidden" name="csrf" value="${view.csrf}">
  <section class="card"><h2>Arguments</h2><pre>${JSON.stringify(item.input, null, 2)}</pre></section>
  <section class="card"><h2>Result</h2>
    <textarea name="output" rows="5" aria-label="result" placeholder="The tool's result, as the agent will read it"></textarea>
    <div class="actions">
      <label><input type="checkbox" name="is_error" value="true"> it failed (the agent reads it as an error)</label>
      <button type="submit" class="primary" name="action" value="submit">Submit result</button>
    </div>
  </section>
</form>`;
}

/** A message for the run that holds the call, which its next model call reads (steering). */
function inputForm(view: ItemView): SafeHtml {
  return html`<form method="post" action="${itemPath({ workflowId: view.holderId, callId: view.callId })}/input" data-add-input>
  <input type="hidden" name="csrf" value="${view.csrf}">
  <section class="card"><h2>Tell the agent</h2>
    <textarea name="text" rows="2" aria-label="message to the agent" placeholder="A message the agent reads at its next step, e.g. also check the invoice"></textarea>
    <div class="actions"><button type="submit" name="action" value="add-input">Send to the agent</button></div>
  </section>
</form>`;
}

const OUTCOME_WORDS = { approved: 'approved', denied: 'denied', submitted: 'answered with a result', timed_out: 'timed out: nobody answered in time' } as const;

function answeredNote(answer: CallAnswer | undefined, mine: boolean): SafeHtml {
  if (!answer) return html`<p class="gone">This call is not waiting (any more).</p>`;
  const who = answer.answeredBy ? html` by <strong>${answer.answeredBy}</strong>` : '';
  return html`<p class="gone" data-answered-by="${answer.answeredBy ?? ''}">${mine ? 'It was' : 'Already'} ${OUTCOME_WORDS[answer.outcome]}${who}, ${when(answer.at)}.</p>`;
}

export function itemPage(view: ItemView): SafeHtml {
  const item = view.open?.call;
  const title = item ? `${item.tool} · ${item.agent}` : `Call ${view.callId}`;
  const pageLink = (index: number) => `${itemPath({ workflowId: view.holderId, callId: view.callId })}?page=${index}`;
  return page(
    title,
    view.identity,
    // Only a page with a waiting call follows it: after one's own answer nothing was answered elsewhere.
    html`<main${item ? html` data-item-key="${itemKey(item)}"` : ''}>
<p><a href="/">← every waiting call</a></p>
<h2>${item ? titleOf(item) : html`Call <code>${view.callId}</code> of <code>${view.holderId}</code>`}</h2>
${view.done ? html`<p class="done" role="status">${view.done}</p>` : ''}
${view.refusal ? html`<p class="refusal" role="alert" data-refusal>${view.refusal}</p>` : ''}
<p id="gone" class="gone-live" hidden>This call stopped waiting: it was answered elsewhere. Reload to see who answered.</p>
${item ? html`<section class="card">${facts(view, item)}</section>${item.kind === 'approval' ? approvalForm(view, item, view.open?.schema) : externalForm(view, item)}${inputForm(view)}` : answeredNote(view.answer, view.done !== undefined)}
${view.conversation ? html`<section class="card"><h2>Conversation</h2>${conversationView(view.conversation, pageLink)}</section>` : ''}
</main>`,
  );
}
