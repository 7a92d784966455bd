import type { JsonSchema } from '../common/tools';
import { html, raw, type SafeHtml } from './html';
import { ago, page } from './layout';
import { conversationView, type ConversationPage } from './conversation-view';
import { hasFields, schemaFields, type FieldErrors } from './schema-form';
import { itemKey, itemPath, type WaitingItem } from './waiting-items';
import type { CallAnswer } from './call-answers';

export interface ItemView {
  holderId: string;
  callId: string;
  item?: WaitingItem;
  /** The page of the holder run's conversation shown. */
  conversation?: ConversationPage;
  schema?: JsonSchema;
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

function facts(view: ItemView, item: WaitingItem): SafeHtml {
  return html`<dl class="facts">
  <dt>Agent</dt><dd>${item.agent}${item.holderId !== item.runId ? html` <span class="muted">(sub-agent; started from ${item.topAgent}, run <code>${item.runId}</code>)</span>` : ''}</dd>
  <dt>Started by</dt><dd>${item.startedBy ?? html`<span class="muted">not named</span>`}</dd>
  <dt>Tool</dt><dd><code>${item.tool}</code></dd>
  <dt>Waits for</dt><dd>${item.kind === 'approval' ? 'approval' : 'an external result'}, since <span title="${item.since}">${ago(item.since)}</span></dd>
  ${item.reason ? html`<dt>Why it asks</dt><dd data-reason>${item.reason}</dd>` : ''}
  ${item.suggestedRule ? html`<dt>Rule</dt><dd><code>${item.suggestedRule}</code></dd>` : ''}
  <dt>Run</dt><dd><code>${item.holderId}</code> · <a href="${view.webUiLink}" target="_blank" rel="noopener noreferrer">Temporal Web UI</a></dd>
</dl>`;
}

function approvalForm(view: ItemView, item: WaitingItem): SafeHtml {
  const input = view.input ?? item.input;
  const errors = view.errors ?? {};
  const whole = errors[''];
  const rawJson = view.rawJson ?? JSON.stringify(input, null, 2);
  return html`<form method="post" action="${itemPath(item)}" novalidate data-answer>
  <input type="hidden" name="csrf" value="${view.csrf}">
  ${hasFields(view.schema) ? html`<script type="application/json" id="tool-schema">${raw(scriptJson(view.schema))}</script>` : ''}
  <section class="card"><h2>Arguments</h2>
    <p id="not-sent" class="refusal" role="alert" hidden>The edited arguments do not fit the tool's schema; nothing was sent.</p>
    ${hasFields(view.schema) ? schemaFields(view.schema, input, errors) : html`<p class="muted">This tool's schema is not known to the inbox: edit the JSON below.</p>`}
    ${whole ? html`<p class="error" role="alert">${whole}</p>` : ''}
    <details${view.rawJson !== undefined || !hasFields(view.schema) ? html` open` : ''}><summary>Raw JSON</summary>
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

function externalForm(view: ItemView, item: WaitingItem): SafeHtml {
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

function answeredNote(answer: CallAnswer | undefined): SafeHtml {
  if (!answer) return html`<p class="gone">This call is not waiting (any more).</p>`;
  return html`<p class="gone" data-answered-by="${answer.by ?? ''}">Already ${answer.what}${answer.by ? html` by <strong>${answer.by}</strong>` : ''}${answer.at ? html` at ${answer.at}` : ''}.</p>`;
}

export function itemPage(view: ItemView): SafeHtml {
  const item = view.item;
  const key = itemKey(view);
  const title = item ? `${item.tool} · ${item.agent}` : `Call ${view.callId}`;
  const pageLink = (index: number) => `${itemPath(view)}?page=${index}`;
  return page(
    title,
    view.identity,
    html`<main data-item-key="${key}">
<p><a href="/">← every waiting call</a></p>
<h2>${item ? html`<code>${item.tool}</code> waits for ${item.kind === 'approval' ? 'approval' : 'its result'}` : html`Call <code>${view.callId}</code> of <code>${view.holderId}</code>`}</h2>
${view.done ? html`<p class="done" role="status">${view.done}</p>` : ''}
${view.refusal ? html`<p class="refusal" role="alert" data-refusal>${view.refusal}</p>` : ''}
<p id="gone" class="gone-live" hidden>This call stopped waiting: it was answered elsewhere. Reload to see who answered.</p>
${item ? html`<section class="card">${facts(view, item)}</section>${item.kind === 'approval' ? approvalForm(view, item) : externalForm(view, item)}` : answeredNote(view.answer)}
${view.conversation ? html`<section class="card"><h2>Conversation</h2>${conversationView(view.conversation, pageLink)}</section>` : ''}
</main>`,
  );
}
