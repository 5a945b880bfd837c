// The fw-b test app: one view module covering routing, responses, interceptors, menus and errors.
import { FwB, HTTPError, reply, request } from "../../../src/index.js";
import { navTitle, renderJson, renderXml, route } from "../../../src/decorators/index.js";

const loggedIn = (ctx: { state: Record<string, unknown> }) => Boolean(ctx.state["user"]);

@navTitle("Home", { order: 0 })
export class Index extends FwB {
  index() {
    return { title: "Welcome", greeting: "Hello <world>" };
  }
  /** A string is the body. */
  about_us() {
    return "About us";
  }
  /** An HTML string is served as text/html. */
  snippet() {
    return "<p>snippet</p>";
  }
  /** `.html` template used when there is no `.pug`. */
  plain() {
    return { name: "Ada & Bob" };
  }
  /** `.md` template. */
  notes() {}
  /** No template at all: a 500 whose log names the expected path. */
  missing() {
    return { x: 1 };
  }
  /** A template that uses the markdown filter and local. */
  rich() {
    return { body: "**bold** <script>alert(1)</script>" };
  }
  teapot() {
    throw HTTPError.ImATeapot("No coffee here");
  }
  secret() {
    throw HTTPError.Unauthorized();
  }
  boom() {
    throw new Error("kaput");
  }
  created() {
    return reply({ title: "Created" }, { status: 201, headers: { Location: "/account/info" } });
  }
  go() {
    return this.redirect(this.urlFor("Account.info"));
  }
}

/** The seed's examples. */
@navTitle("Account", { order: 2, visible: loggedIn })
export class Account extends FwB {
  @navTitle("Info")
  info() {
    return { user: "ada" };
  }
  @navTitle("Settings", { order: -1 })
  settings() {
    return "settings";
  }
}

export class Document extends FwB {
  get(id: string) {
    return `document ${id}`;
  }
  post() {
    return "created";
  }
  put(id: string) {
    return `replaced ${id}`;
  }
  delete(id: string) {
    return `deleted ${id}`;
  }
  @request.post
  publish(id: string) {
    return `published ${id}`;
  }
  @request.put
  @request.del
  lock(id: string) {
    return `${this.ctx.method} lock ${id}`;
  }
  echo() {
    return JSON.stringify((this.ctx.request as { body?: unknown }).body ?? null);
  }
  @request.post
  @route("/echo")
  echoPost() {
    return JSON.stringify((this.ctx.request as { body?: unknown }).body ?? null);
  }
}

/** A class route is the prefix all its methods inherit. */
@route("/store")
@navTitle("Catalog", { order: 1 })
export class Catalog extends FwB {
  index() {
    return { items: ["tea", "coffee"] };
  }
  @navTitle("Teas")
  teas() {
    return "teas";
  }
  item(slug: string) {
    return `item ${slug}`;
  }
  @route("/specials/:kind")
  specials(kind: string) {
    return `specials ${kind}`;
  }
}

@route("/api/products")
@renderJson
export class Api extends FwB {
  index() {
    return { products: [{ id: 1, name: "Tea" }] };
  }
  get(id: string) {
    if (id !== "1") throw HTTPError.NotFound(`No product ${id}`);
    return { id: 1, name: "Tea" };
  }
  @request.post
  create() {
    return reply(
      { created: (this.ctx.request as { body?: unknown }).body },
      { status: 201, headers: { Location: "/api/products/2" } },
    );
  }
  list() {
    return [1, 2, 3];
  }
  @renderXml
  feed() {
    return { when: new Date("2024-01-02T03:04:05.000Z"), ok: true, none: null, items: [1, 2], "bad key": "a<b" };
  }
}

export class Feed extends FwB {
  @renderXml
  index() {
    return { title: "Feed & news", entries: [{ id: 1 }, { id: 2 }] };
  }
  @renderXml
  broken() {
    throw HTTPError.Gone("The feed moved");
  }
}

/** Interceptors: before short-circuits, after replaces. */
export class Guarded extends FwB {
  beforeRequest(name: string, ...args: unknown[]) {
    if (this.ctx.get("x-block") === "yes") return `blocked before ${name}(${args.join(",")})`;
    return undefined;
  }
  afterRequest(name: string, response: unknown) {
    if (name === "wrapped") return `after: ${String(response)}`;
    return response;
  }
  show(id: string) {
    return `show ${id}`;
  }
  wrapped() {
    return "inner";
  }
}

@renderJson
export class JsonGuarded extends FwB {
  async beforeRequest(name: string) {
    if (this.ctx.get("x-token") !== "ok") throw HTTPError.Forbidden(`Token required for ${name}`);
    return undefined;
  }
  index() {
    return { ok: true };
  }
}
