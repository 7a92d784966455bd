import type { WaitingCall } from '../common/contracts/published-waits';
import { html, type SafeHtml } from './html';
import { approvalProgress } from '../text/approval-progress';
import { itemPath, type InboxList } from './inbox-calls';
import { compactJson, page, when } from './layout';
import { AGES, filtersQuery, type ListFilters } from './list-filters';

function row(call: WaitingCall): SafeHtml {
  const where = call.top ? html`<div class="muted">sub-agent of ${call.top.agent ?? 'a run'} (${call.top.workflowId})</div>` : '';
  return html`<tr data-call="${call.callId}" data-run="${call.workflowId}">
  <td><a href="${itemPath(call)}">${call.tool}</a> <span class="kind ${call.kind}">${call.kind === 'approval' ? 'approval' : 'external result'}</span><div class="muted"><code>${call.input !== undefined ? compactJson(call.input) : call.preview}</code></div></td>
  <td>${call.agent}${where}</td>
  <td>${call.startedBy ?? html`<span class="muted">—</span>`}</td>
  <td>${call.reason ?? ''}</td>
  <td>${when(call.since)}${approvalProgress(call) ? html`<div class="muted" data-progress>${approvalProgress(call)}</div>` : ''}</td>
</tr>`;
}

/** The table of waiting calls (also what the live updates fetch again), and the link to the next page. */
export function itemsFragment(list: InboxList, filters: ListFilters): SafeHtml {
  const unreadable = list.unreadable.map(
    (run) => html`<tr class="unreadable"><td colspan="5">${run.workflowId} (${run.agent ?? '?'}): unreadable, ${run.unreadable.reason}: ${run.unreadable.message}</td></tr>`,
  );
  const next = list.nextPageToken ? html`<nav class="pager"><a href="/${filtersQuery(filters, list.nextPageToken)}" data-next>More waiting calls →</a></nav>` : '';
  const first = filters.after ? html`<nav class="pager"><a href="/${filtersQuery(filters)}">← the newest</a></nav>` : '';
  if (list.calls.length === 0 && unreadable.length === 0) return html`${first}<p class="empty">${list.nextPageToken ? 'Nothing on this page matches.' : 'Nothing is waiting.'}</p>${next}`;
  return html`${first}<table class="items">
<thead><tr><th>Call</th><th>Agent</th><th>Started by</th><th>Why</th><th>Waiting since</th></tr></thead>
<tbody>${list.calls.map(row)}${unreadable}</tbody>
</table>${next}`;
}

function select(name: string, label: string, options: string[], current: string | undefined): SafeHtml {
  const all = current && !options.includes(current) ? [...options, current] : options;
  return html`<label>${label}<select name="${name}"><option value="">any</option>${all.map(
    (option) => html`<option value="${option}"${option === current ? html` selected` : ''}>${option}</option>`,
  )}</select></label>`;
}

/** The list page: filters, how many runs wait in all, and the page's calls. */
export function listPage(list: InboxList, filters: ListFilters, waitingRuns: number | undefined, identity: string): SafeHtml {
  const agents = [...new Set(list.calls.flatMap((call) => [call.agent, ...(call.top?.agent ? [call.top.agent] : [])]))].sort();
  const users = [...new Set(list.calls.flatMap((call) => (call.startedBy ? [call.startedBy] : [])))].sort();
  return page(
    'Waiting calls',
    identity,
    html`<form class="filters" method="get" action="/">
  ${select('agent', 'Agent', agents, filters.agent)}
  ${select('user', 'Started by', users, filters.user)}
  ${select('kind', 'Kind', ['approval', 'external'], filters.kind)}
  ${select('age', 'Waiting less than', Object.keys(AGES), filters.age)}
  <button type="submit">Filter</button>
</form>
${waitingRuns !== undefined ? html`<p class="muted" data-waiting-runs="${String(waitingRuns)}">${String(waitingRuns)} run${waitingRuns === 1 ? '' : 's'} waiting in all</p>` : ''}
<div id="items">${itemsFragment(list, filters)}</div>`,
  );
}
