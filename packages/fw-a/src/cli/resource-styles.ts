// The stylesheet rules of generated resource pages (flash messages, form fields and their errors,
// tables, buttons), part of a new app's static/css/app.css and added by gen:resource to an app
// whose stylesheet lacks them.

/** The first line of the rules: gen:resource adds them when the app's stylesheet does not have it. */
export const RESOURCE_CSS_MARKER = "/* Generated resource pages (fw-a gen:resource): flash, forms, tables, buttons. */";

/** The rules, under {@link RESOURCE_CSS_MARKER}; they use the scaffold's colours and add their own for states. */
export const RESOURCE_CSS = `${RESOURCE_CSS_MARKER}
:root { --danger: #c62828; --danger-soft: #fdecea; --success: #1e7d3c; --success-soft: #e7f5ec; --info-soft: #e8ecff; --warning: #8a5a00; --warning-soft: #fff4d6; }
@media (prefers-color-scheme: dark) {
  :root { --danger: #ff8a80; --danger-soft: #3a1f22; --success: #7bd88f; --success-soft: #18301f; --info-soft: #22284a; --warning: #f5c451; --warning-soft: #3a3016; }
}
.flash { margin: 0 0 1.25rem; padding: 0.75rem 1rem; border-radius: 8px; border: 1px solid var(--border); border-left-width: 4px; background: var(--info-soft); }
.flash-success { background: var(--success-soft); border-color: var(--success); }
.flash-error { background: var(--danger-soft); border-color: var(--danger); }
.flash-warning { background: var(--warning-soft); border-color: var(--warning); }
.flash-info { border-color: var(--accent); }
.page-header { display: flex; align-items: center; justify-content: space-between; gap: 1rem; flex-wrap: wrap; margin-bottom: 1.25rem; }
.page-header h1 { margin: 0; }
.form { max-width: 36rem; }
.field { margin: 0 0 1rem; }
.field label { display: inline-block; margin-bottom: 0.3rem; font-weight: 600; }
.field label.check { display: flex; align-items: center; gap: 0.5rem; font-weight: 400; }
.field input:not([type="checkbox"]), .field textarea { display: block; width: 100%; padding: 0.5rem 0.7rem; border: 1px solid var(--border); border-radius: 8px; background: var(--surface); color: var(--text); font: inherit; }
.field input:focus, .field textarea:focus { outline: 2px solid var(--accent); outline-offset: 1px; }
.field.has-error input, .field.has-error textarea { border-color: var(--danger); }
.error { display: block; margin-top: 0.25rem; color: var(--danger); font-size: 0.875rem; }
.table { width: 100%; border-collapse: collapse; background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius); overflow: hidden; }
.table th, .table td { padding: 0.6rem 1rem; text-align: left; border-top: 1px solid var(--border); }
.table thead th { border-top: 0; color: var(--muted); font-size: 0.875rem; font-weight: 600; }
.details { display: grid; grid-template-columns: max-content 1fr; gap: 0.5rem 1.5rem; margin: 0 0 1.5rem; }
.details dt { color: var(--muted); }
.details dd { margin: 0; }
.actions { display: flex; align-items: center; gap: 0.75rem; flex-wrap: wrap; }
.actions form { margin: 0; }
button.button { border: 0; font: inherit; font-weight: 600; cursor: pointer; }
.button.button-secondary { background: var(--surface); color: var(--text); border: 1px solid var(--border); }
.button-danger { background: var(--danger); color: var(--surface); }
`;
