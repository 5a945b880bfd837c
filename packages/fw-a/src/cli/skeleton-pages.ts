// The pages of a new fw-a app (written by gen:init through skeleton.ts).
import { NAV_MARKER } from "./resource-nav.js";
import { RESOURCE_CSS } from "./resource-styles.js";

/** The example view, its templates and the stylesheet. */
export function pageFiles(appName: string): Record<string, string> {
  return {
    "views/main.ts": `import { FwA, response } from "fw-a";
import { Note } from "../lib/models.js";

/** The home page: GET / renders templates/main/Index/index.html with the notes from the database. */
export class Index extends FwA {
  async index() {
    return { title: "Welcome", message: "Your fw-a app is running.", notes: await Note.all() };
  }
}

/** A JSON endpoint: GET /api/ */
@response.json
export class Api extends FwA {
  index() {
    return { app: ${JSON.stringify(appName)}, framework: "fw-a", ok: true };
  }
}
`,
    "templates/layouts/base.html": `<!doctype html>
<html lang="{{ locale or 'en' }}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="color-scheme" content="light dark">
  <title>{% block title %}${appName}{% endblock %} · ${appName}</title>
  <link rel="stylesheet" href="{{ static('css/app.css') }}">
</head>
<body>
  <header class="site-header">
    <div class="bar">
      <a class="brand" href="{{ config.basePath }}/"><span class="logo" aria-hidden="true">A</span>${appName}</a>
      <nav aria-label="Main">
        {% block nav %}<a href="{{ config.basePath }}/">Home</a>{% endblock %}
        ${NAV_MARKER}
      </nav>
    </div>
  </header>
  <main class="page">
    {% block body %}{% endblock %}
  </main>
  <footer class="site-footer">
    <p>Made with fw-a · layout in <code>templates/layouts/base.html</code>, styles in <code>static/css/app.css</code></p>
  </footer>
</body>
</html>
`,
    "templates/main/Index/index.html": `{% extends "layouts/base.html" %}
{% block title %}{{ title }}{% endblock %}
{% block nav %}<a href="{{ config.basePath }}/" aria-current="page">Home</a> <a href="{{ url_for('Api.index') }}">JSON API</a>{% endblock %}
{% block body %}
  <section class="hero">
    <h1>{{ title }}</h1>
    <p class="lead">{{ message }}</p>
  </section>
  <div class="grid">
    <section class="card">
      <h2>Notes</h2>
      <ul class="notes">
      {% for note in notes %}
        <li><span>{{ note.title }}</span> <small>{{ timeAgo(note.created_at) }}</small></li>
      {% else %}
        <li class="empty">No notes yet: run <code>npx fw-a db:migrate</code>.</li>
      {% endfor %}
      </ul>
    </section>
    <section class="card">
      <h2>Next steps</h2>
      <ol class="steps">
        <li>Change this page in <code>views/main.ts</code> and <code>templates/main/Index/index.html</code>.</li>
        <li>Add a page with <code>npx fw-a gen:view about</code>.</li>
        <li>List the routes with <code>npx fw-a routes</code>.</li>
      </ol>
      <p><a class="button" href="{{ url_for('Api.index') }}">Open the JSON API</a></p>
    </section>
  </div>
{% endblock %}
`,
    "static/css/app.css": `/* The scaffold's stylesheet, served at /static/css/app.css: no CDN, no build step. */
:root {
  --bg: #f6f7fb;
  --surface: #ffffff;
  --text: #1f2430;
  --muted: #5d6475;
  --accent: #3d5afe;
  --accent-text: #ffffff;
  --border: #e2e5ee;
  --radius: 12px;
  color-scheme: light dark;
}
@media (prefers-color-scheme: dark) {
  :root { --bg: #14161c; --surface: #1d2029; --text: #e8eaf0; --muted: #a0a6b6; --accent: #8c9eff; --accent-text: #10131a; --border: #2c303c; }
}
* { box-sizing: border-box; }
body {
  margin: 0;
  font: 16px/1.6 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  background: var(--bg);
  color: var(--text);
  min-height: 100vh;
  display: flex;
  flex-direction: column;
}
a { color: var(--accent); }
code { font: 0.9em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--bg); padding: 0.1em 0.35em; border-radius: 4px; }
.site-header { background: var(--surface); border-bottom: 1px solid var(--border); }
.bar { max-width: 60rem; margin: 0 auto; padding: 0.75rem 1.25rem; display: flex; align-items: center; justify-content: space-between; gap: 1rem; }
.brand { display: flex; align-items: center; gap: 0.6rem; font-weight: 700; font-size: 1.1rem; color: var(--text); text-decoration: none; }
.logo { display: inline-grid; place-items: center; width: 2rem; height: 2rem; border-radius: 8px; background: var(--accent); color: var(--accent-text); }
nav { display: flex; gap: 1.25rem; }
nav a { color: var(--muted); text-decoration: none; }
nav a:hover, nav a[aria-current="page"] { color: var(--text); }
.page { flex: 1; width: 100%; max-width: 60rem; margin: 0 auto; padding: 2.5rem 1.25rem; }
.hero h1 { margin: 0 0 0.25rem; font-size: 2.25rem; line-height: 1.2; letter-spacing: -0.02em; }
.lead { margin: 0 0 2rem; color: var(--muted); font-size: 1.15rem; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); gap: 1.25rem; }
.card { background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius); padding: 1.25rem 1.5rem; box-shadow: 0 1px 2px rgb(0 0 0 / 0.04); }
.card h2 { margin: 0 0 0.75rem; font-size: 1.1rem; }
.notes { list-style: none; margin: 0; padding: 0; }
.notes li { display: flex; justify-content: space-between; gap: 1rem; padding: 0.5rem 0; border-top: 1px solid var(--border); }
.notes li:first-child { border-top: 0; }
.notes small { color: var(--muted); white-space: nowrap; }
.empty { color: var(--muted); }
.steps { margin: 0 0 1rem; padding-left: 1.25rem; }
.button { display: inline-block; padding: 0.5rem 1rem; border-radius: 8px; background: var(--accent); color: var(--accent-text); text-decoration: none; font-weight: 600; }
.site-footer { border-top: 1px solid var(--border); color: var(--muted); font-size: 0.875rem; }
.site-footer p { max-width: 60rem; margin: 0 auto; padding: 1rem 1.25rem; }
${RESOURCE_CSS}`,
  };
}
