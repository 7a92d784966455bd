/**
 * A page that follows one run through the stream endpoint: the run's steps, the model's text as it
 * is written, calls that wait for a person. Static: the run id is read from the page's own path,
 * so nothing of a request is written into the HTML.
 */
export function streamPageHtml(basePath: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Run · durable-agent</title>
<script src="${basePath}/run-stream.js" defer></script>
</head>
<body data-run-stream data-base="${basePath}">
<h1 id="run-title">Run</h1>
<p id="run-status" role="status">connecting…</p>
<ol id="run-steps"></ol>
</body>
</html>`;
}

/** The page's script: an EventSource (it reconnects with Last-Event-ID by itself) and a few DOM writes, no framework. */
export const STREAM_PAGE_SCRIPT = `(() => {
  const body = document.body;
  const base = body.dataset.base || '';
  const id = decodeURIComponent(location.pathname.slice((base + '/runs/').length));
  document.getElementById('run-title').textContent = 'Run ' + id;
  const status = document.getElementById('run-status');
  const steps = document.getElementById('run-steps');
  const replies = new Map();
  const step = (text, depth, className) => {
    const item = document.createElement('li');
    item.textContent = text;
    item.style.marginLeft = (depth * 2) + 'em';
    if (className) item.className = className;
    steps.appendChild(item);
    return item;
  };
  const reply = (item) => {
    const key = item.workflowId + ' ' + item.iteration;
    if (!replies.has(key)) replies.set(key, step('', item.depth, 'reply'));
    return replies.get(key);
  };
  const source = new EventSource(base + '/runs/' + encodeURIComponent(id) + '/stream');
  source.onopen = () => { status.textContent = 'following'; };
  source.onerror = () => { if (source.readyState !== EventSource.CLOSED) status.textContent = 'reconnecting…'; };
  source.addEventListener('text_delta', (message) => {
    const item = JSON.parse(message.data);
    reply(item).textContent += item.text;
  });
  source.addEventListener('model_call_restarted', (message) => {
    const item = JSON.parse(message.data);
    reply(item).textContent = '';
    step('the model call was made again (attempt ' + item.attempt + ')', item.depth, 'note');
  });
  source.addEventListener('event', (message) => {
    const item = JSON.parse(message.data);
    const event = item.event;
    if (item.waiting) {
      const waiting = item.waiting;
      step((waiting.kind === 'approval' ? 'waiting for approval: ' : 'waiting for a result: ') + waiting.tool + ' ' + JSON.stringify(waiting.input), item.depth, 'waiting');
    } else if (event.type === 'tool_call_started') {
      step('tool ' + event.tool + ' ' + JSON.stringify(event.input), item.depth, 'tool');
    } else if (event.type === 'subagent_started') {
      step('sub-agent ' + event.agent + ': ' + event.task, item.depth, 'subagent');
    } else if (event.type === 'run_finished' && item.depth === 0) {
      status.textContent = event.status;
      status.dataset.status = event.status;
    }
  });
  source.addEventListener('stream_error', (message) => {
    status.textContent = 'stopped: ' + JSON.parse(message.data).message;
    source.close();
  });
  source.addEventListener('end', () => source.close());
})();
`;
