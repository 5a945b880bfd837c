/**
 * What the suite adds to a freshly scaffolded app before attacking it: the kind of code an app
 * writer adds on day one (a page that renders stored Markdown, a form that changes state, a JSON
 * view with per-view CORS, a redirect to a caller-chosen target, a search form over the database,
 * a plugin that answers a route of its own), written the way each framework's docs show.
 */

/** The config of an app under attack: production keys the suite sets on top of the scaffold's. */
const CONFIG_EXTRA = `
  trustProxy: 1,
  autoMigrate: true,
  loginLimitAccount: 5,
  loginLimitAddress: 36,`;
// bcrypt keeps its production cost (12): the timing case must see the gap a cheaper dummy hash leaves.

/** A plugin that answers one unsafe route itself (not a class view), as a battery or an app may. */
const PLUGIN = `
/** A plugin route: answers POST /plugin/action itself, outside any class view. */
export const actionPlugin = {
  name: "suite-action",
  phases: {
    request: () => [
      async (ctx: { method: string; path: string; status: number; body: unknown }, next: () => Promise<void>) => {
        if (ctx.method === "POST" && ctx.path === "/plugin/action") {
          ctx.body = "plugin route changed state";
          return;
        }
        await next();
      },
    ],
  },
};
`;

/** Files written over the fw-a scaffold. */
export function fwaFiles(): Record<string, string> {
  return {
    "app.ts": `import { defineApp } from "fw-a";
${PLUGIN}
export const app = defineApp({ root: import.meta.dirname, plugins: [actionPlugin] });
`,
    "lib/config.ts": `import { defineConfig } from "fw-a";

export const config = defineConfig({
  appName: "suite-a",
  dbUrl: "sqlite:data/app.db",${CONFIG_EXTRA}
  environments: { production: { logLevel: "info" } },
});
`,
    "views/attack.ts": `import { readFileSync } from "node:fs";
import { FwA, request, response, security } from "fw-a";
import { Note } from "../lib/models.js";

/** Posts whose bodies come from storage (data/posts.json), rendered with the markdown filter. */
export class Posts extends FwA {
  index() {
    return { bodies: JSON.parse(readFileSync(new URL("../data/posts.json", import.meta.url), "utf8")) as string[] };
  }

  /** A form that changes state: GET shows it with a CSRF token, POST accepts it. */
  @request.get
  @request.post
  edit() {
    return this.ctx.method === "POST" ? "saved" : { token: true };
  }

  /** Redirects to a target the caller chose. */
  go() {
    return response.redirect(String(this.ctx.query["to"] ?? "/"));
  }

  /** A search form over the database (GET). */
  async search() {
    const q = String(this.ctx.query["q"] ?? "");
    return { q, notes: await Note.query().where("title", "like", \`%\${q}%\`) };
  }
}

/** JSON for one origin only. */
@response.json
@security.cors({ origins: ["https://app.example"] })
export class Shared extends FwA {
  index() {
    return { shared: true };
  }
  @request.post
  save() {
    return { saved: true };
  }
}

/** A JSON route over the database. */
@response.json
export class Lookup extends FwA {
  async index() {
    const id = String(this.ctx.query["id"] ?? "1");
    return { notes: await Note.query().where("id", id) };
  }
}
`,
    "templates/attack/Posts/index.html": `{% extends "layouts/base.html" %}
{% block body %}
{% for body in bodies %}<section data-case="{{ loop.index0 }}">{{ body | markdown }}</section>
{% endfor %}
{% endblock %}
`,
    "templates/attack/Posts/edit.html": `{% extends "layouts/base.html" %}
{% block body %}<form method="post"><input type="hidden" name="_csrf_token" value="{{ csrf_token() }}"><button>Save</button></form>{% endblock %}
`,
    "templates/attack/Posts/search.html": `{% extends "layouts/base.html" %}
{% block body %}<form method="get"><input name="q" value="{{ q }}"><button>Search</button></form>
<ul>{% for note in notes %}<li>{{ note.title }}</li>{% endfor %}</ul>{% endblock %}
`,
  };
}

/** Files written over the fw-b scaffold (contrib auth on). */
export function fwbFiles(): Record<string, string> {
  return {
    "app.ts": `import { defineApp } from "fw-b";
${PLUGIN}
export const app = defineApp({ root: import.meta.dirname, plugins: [actionPlugin] });
`,
    "lib/config.ts": `import { defineConfig } from "fw-b";

export const config = defineConfig({
  appName: "suite-b",
  siteName: "Suite B",
  dbUrl: "sqlite:data/app.db",${CONFIG_EXTRA}
  mailFrom: "Suite <suite@example.test>",
  baseUrl: "https://suite-b.example",
  contrib: { auth: { requireVerification: false }, errors: true, contact: { recipients: ["team@suite-b.example"] } },
  environments: { production: { logLevel: "info" } },
});
`,
    "views/attack.ts": `import { readFileSync } from "node:fs";
import { FwB, request } from "fw-b";
import { cors, renderJson } from "fw-b/decorators";
import { Product } from "../lib/models.js";

/** Posts whose bodies come from storage (data/posts.json), rendered with the markdown local. */
export class Posts extends FwB {
  index() {
    return { bodies: JSON.parse(readFileSync(new URL("../data/posts.json", import.meta.url), "utf8")) as string[] };
  }

  /** A form that changes state: GET shows it with a CSRF token, POST accepts it. */
  @request.get
  @request.post
  edit() {
    return this.ctx.method === "POST" ? "saved" : {};
  }

  /** Redirects to a target the caller chose. */
  go() {
    return this.redirect(String(this.ctx.query["to"] ?? "/"));
  }

  /** A search form over the database (GET). */
  async search() {
    const q = String(this.ctx.query["q"] ?? "");
    return { q, products: await Product.query().where("name", "like", \`%\${q}%\`) };
  }

  /**
   * The long form's control: SQL built by string concatenation, which sqlmap must report as
   * injectable (proves the scan would see an injection if a framework let one through).
   */
  async unsafe() {
    const q = String(this.ctx.query["q"] ?? "");
    return { q, products: await Product.query().whereRaw(\`name = '\${q}'\`) };
  }
}

/** JSON for one origin only. */
@renderJson
@cors({ origins: ["https://app.example"] })
export class Shared extends FwB {
  index() {
    return { shared: true };
  }
  @request.post
  save() {
    return { saved: true };
  }
}
`,
    "templates/attack/Posts/index.pug": `extends /layouts/default
block content
  each body, i in bodies
    section(data-case=String(i))!= markdown(body)
`,
    "templates/attack/Posts/edit.pug": `extends /layouts/default
block content
  form(method="post")
    input(type="hidden" name="_csrf_token" value=csrf_token())
    button Save
`,
    "templates/attack/Posts/unsafe.pug": `ul
  each product in products
    li= product.name
`,
    "templates/attack/Posts/search.pug": `extends /layouts/default
block content
  form(method="get")
    input(name="q" value=q)
    button Search
  ul
    each product in products
      li= product.name
`,
  };
}
