import { html, type SafeHtml } from './html';

export function page(title: string, identity: string, body: SafeHtml): SafeHtml {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · durable-agent inbox</title>
<link rel="stylesheet" href="/inbox.css">
<script src="/inbox.js" defer></script>
</head>
<body>
<header class="top"><h1><a href="/">Inbox</a></h1><span class="muted">durable-agent${identity ? html` · signed in as <strong data-identity>${identity}</strong>` : ''}</span></header>
${body}
</body>
</html>`;
}

/** How long ago, in words a person reads at a glance. */
export function ago(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 60) return `${seconds}s ago`;
  if (seconds < 3600) return `${Math.round(seconds / 60)}m ago`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)}h ago`;
  return `${Math.round(seconds / 86_400)}d ago`;
}

/** A moment as people read it (UTC, to the minute, and how long ago), the exact time on hover. */
export function when(iso: string, now = Date.now()): SafeHtml {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return html`${iso}`;
  const shown = date.toLocaleString('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
  return html`<time datetime="${iso}" title="${iso}">${shown} UTC (${ago(iso, now)})</time>`;
}

export function compactJson(value: unknown, max = 120): string {
  const text = JSON.stringify(value) ?? '';
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
