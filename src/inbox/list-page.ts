import { html, type SafeHtml } from './html';
import { ago, compactJson, page } from './layout';
import { AGES, type ListFilters } from './list-filters';
import { itemPath, type WaitingItem, type WaitingList } from './waiting-items';

function row(item: WaitingItem): SafeHtml {
  const where = item.holderId !== item.runId ? html`<div class="muted">sub-agent of ${item.topAgent} (${item.runId})</div>` : '';
  return html`<tr data-call="${item.callId}" data-run="${item.holderId}">
  <td><a href="${itemPath(item)}">${item.tool}</a> <span class="kind ${item.kind}">${item.kind === 'approval' ? 'approval' : 'external result'}</span><div class="muted"><code>${compactJson(item.input)}</code></div></td>
  <td>${item.agent}${where}</td>
  <td>${item.startedBy ?? html`<span class="muted">—</span>`}</td>
  <td>${item.reason ?? ''}</td>
  <td title="${item.since}">${ago(item.since)}</td>
</tr>`;
}

/** The table of waiting calls (also what the live updates fetch again). */
export function itemsFragment(list: WaitingList, shown: WaitingItem[]): SafeHtml {
  const unreadable = list.unreadable.map(
    (run) => html`<tr class="unreadable"><td colspan="5">${run.workflowId} (${run.agent ?? '?'}): unreadable, ${run.unreadable.reason}: ${run.unreadable.message}</td></tr>`,
  );
  if (shown.length === 0 && unreadable.length === 0) return html`<p class="empty">Nothing is waiting.</p>`;
  return html`<table class="items">
<thead><tr><th>Call</th><th>Agent</th><th>Started by</th><th>Why</th><th>Waiting since</th></tr></thead>
<tbody>${shown.map(row)}${unreadable}</tbody>
</table>`;
}

function select(name: string, label: string, options: string[], current: string | undefined): SafeHtml {
  return html`<label>${label}<select name="${name}"><option value="">any</option>${options.map(
    (option) => html`<option value="${option}"${option === current ? html` selected` : ''}>${option}</option>`,
  )}</select></label>`;
}

export function listPage(list: WaitingList, shown: WaitingItem[], filters: ListFilters, identity: string): SafeHtml {
  const agents = [...new Set(list.items.flatMap((item) => [item.agent, item.topAgent]))].sort();
  const users = [...new Set(list.items.flatMap((item) => (item.startedBy ? [item.startedBy] : [])))].sort();
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
<div id="items">${itemsFragment(list, shown)}</div>`,
  );
}
