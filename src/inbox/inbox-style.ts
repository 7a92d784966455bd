/** The pages' style sheet, served as a file (their CSP allows no inline style). */
export const INBOX_STYLE = `
:root { font-family: system-ui, sans-serif; color: #1d232a; background: #f6f7f9; }
body { margin: 0 auto; max-width: 72rem; padding: 1rem 1.5rem 3rem; }
header.top { display: flex; align-items: baseline; gap: 1rem; }
header.top h1 { font-size: 1.4rem; margin: 0.5rem 0; }
a { color: #1f5fbf; }
form.filters { display: flex; gap: 0.75rem; flex-wrap: wrap; align-items: end; margin: 0.5rem 0 1rem; }
form.filters label { display: flex; flex-direction: column; font-size: 0.8rem; color: #555; }
table.items { width: 100%; border-collapse: collapse; background: #fff; }
table.items th, table.items td { text-align: left; padding: 0.5rem 0.6rem; border-bottom: 1px solid #e3e6ea; vertical-align: top; }
table.items th { font-size: 0.8rem; color: #555; font-weight: 600; }
.kind { font-size: 0.75rem; border-radius: 0.6rem; padding: 0.1rem 0.5rem; background: #e8eefc; }
.kind.external { background: #fdf1dc; }
code, pre, textarea.json { font-family: ui-monospace, monospace; font-size: 0.85rem; }
pre { white-space: pre-wrap; word-break: break-word; background: #fff; border: 1px solid #e3e6ea; padding: 0.5rem; margin: 0.25rem 0; }
section.card { background: #fff; border: 1px solid #e3e6ea; border-radius: 0.4rem; padding: 0.8rem 1rem; margin: 0.8rem 0; }
section.card h2 { font-size: 1rem; margin: 0 0 0.5rem; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; margin: 0; }
dl.facts dt { color: #555; }
.field { display: grid; grid-template-columns: 10rem 1fr; gap: 0.2rem 0.8rem; margin: 0.4rem 0; align-items: start; }
.field small, .field .error { grid-column: 2; margin: 0; }
.field input, .field select, .field textarea, textarea { width: 100%; box-sizing: border-box; padding: 0.35rem; font: inherit; }
.field.invalid input, .field.invalid textarea, .field.invalid select { border: 2px solid #c62828; }
.error, .refusal { color: #b71c1c; }
.refusal, .done, .gone, .gone-live { border-radius: 0.4rem; padding: 0.6rem 0.8rem; margin: 0.8rem 0; }
.refusal { background: #fdecea; }
.done { background: #e7f5ea; color: #1b5e20; }
.gone, .gone-live { background: #fff8e1; }
.actions { display: flex; gap: 0.6rem; flex-wrap: wrap; align-items: center; margin-top: 0.6rem; }
button { font: inherit; padding: 0.4rem 0.9rem; border-radius: 0.3rem; border: 1px solid #9aa4b1; background: #fff; cursor: pointer; }
button.primary { background: #1f5fbf; color: #fff; border-color: #1f5fbf; }
button.danger { background: #fff; color: #b71c1c; border-color: #b71c1c; }
.message { border-left: 3px solid #cfd6de; padding-left: 0.6rem; margin: 0.5rem 0; }
.message .role { font-size: 0.75rem; color: #555; text-transform: uppercase; }
.pager { display: flex; gap: 1rem; }
.muted { color: #666; font-size: 0.85rem; }
ol.events { list-style: none; padding: 0; margin: 0; }
ol.events > li { padding: 0.3rem 0; border-bottom: 1px solid #eef0f3; }
ol.events .seq { display: inline-block; min-width: 2.5rem; color: #555; font-size: 0.8rem; text-align: right; margin-right: 0.4rem; }
details.fork { display: inline-block; margin-left: 0.6rem; font-size: 0.85rem; }
details.fork[open] { display: block; margin: 0.4rem 0 0.4rem 3rem; }
details.fork summary { cursor: pointer; color: #1f5fbf; }
.lineage { background: #eef3fc; border-radius: 0.4rem; padding: 0.5rem 0.8rem; }
`;
