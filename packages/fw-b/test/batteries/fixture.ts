// A small app exercising the batteries through fw-b's idiom: forms with CSRF, login, validation,
// response caching and mail. Templates are written into a temporary root.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { z } from "zod";
import { login } from "@fwkit/security";
import { createApp, flash, FwB, request, type Host } from "../../src/index.js";
import { cache, csrfExempt, loginRequired, renderJson, renderXml } from "../../src/decorators/index.js";

const bodyOf = (view: FwB): Record<string, unknown> =>
  ((view.ctx.request as { body?: unknown }).body ?? {}) as Record<string, unknown>;

const USERS: Record<string, { id: number; name: string }> = { "1": { id: 1, name: "Ada <admin>" } };
export const counter = { calls: 0 };

const signupSchema = z.object({
  name: z.string().trim().min(2, "Name: at least 2 characters"),
  age: z.coerce.number().int("Age: a whole number").min(1, "Age: 1 or more"),
});

export class Forms extends FwB {
  index() {
    return { title: "Forms", when: new Date("2024-05-01T12:00:00Z") };
  }
  @request.post save() {
    return `saved ${String(bodyOf(this)["note"])}`;
  }
  @request.post @csrfExempt hook() {
    return "hooked";
  }
}

@renderJson
export class Api extends FwB {
  @request.post echo() {
    return { body: bodyOf(this) };
  }
  @request.post async signup() {
    const input = await this.validate(signupSchema);
    return { created: input };
  }
}

@renderXml
export class XmlApi extends FwB {
  @request.post async signup() {
    const input = await this.validate(signupSchema);
    return { created: input };
  }
}

export class Session extends FwB {
  @request.post async login() {
    await login(this.ctx, USERS["1"]);
    flash(this.ctx, "success", "Welcome back");
    return this.redirect("/private");
  }
}

@loginRequired
export class Private extends FwB {
  index() {
    return `secret for ${(this.currentUser as { name: string }).name}`;
  }
}

@loginRequired
@renderJson
export class PrivateApi extends FwB {
  index() {
    return { user: this.currentUser };
  }
}

export class Signup extends FwB {
  index() {
    return {};
  }
  @request.post async post() {
    const input = await this.validate(signupSchema);
    return `welcome ${input.name}, ${input.age}`;
  }
}

export class Counter extends FwB {
  @cache(60) index() {
    counter.calls++;
    return `call ${counter.calls}`;
  }
  fresh() {
    counter.calls++;
    return `call ${counter.calls}`;
  }
  /** A page whose only Redis use is the app's cache (a value kept for a minute). */
  async remembered() {
    const value = await this.services.cache.remember("fixture:remembered", 60, () => ++counter.calls);
    return `remembered ${value}`;
  }
}

export class Mailer extends FwB {
  @request.post async send() {
    const body = bodyOf(this) as Record<string, string>;
    await this.services.mailer.sendMail({
      to: body["to"]!,
      template: "welcome",
      context: { name: body["name"], link: "http://127.0.0.1/x?a=1&b=2" },
    });
    return "sent";
  }
}

const TEMPLATES: Record<string, string> = {
  "main/Forms/index.pug": `doctype html
html
  head
    meta(name="csrf-token" content=csrf_token())
  body
    p.user= current_user ? current_user.name : "anonymous"
    each m in flash_messages
      p(class="flash " + m.kind)= m.message
    p.date= formatDate(when, "YYYY-MM-DD HH:mm")
    p.ago= timeAgo(when)
    p.day= formatDate(when, "D MMMM YYYY")
    p.num= format_number(1234.5)
    p.static= static("site.css")
    div.pages!= pagination_links({ pages: 3, page: 2, links: { first: "/forms?page=1", prev: "/forms?page=1", next: "/forms?page=3", last: "/forms?page=3", pages: [{ page: 1, url: "/forms?page=1", current: false }, { page: 2, url: "/forms?page=2", current: true }, { page: 3, url: "/forms?page=3", current: false }] } })
    form(method="post" action="/forms/save")
      input(type="hidden" name="_csrf_token" value=csrf_token())
      input(name="note")
`,
  "main/Signup/index.pug": `doctype html
html
  body
    each m in flash_messages
      p(class="flash " + m.kind)= m.message
    form(method="post" action="/signup")
      input(type="hidden" name="_csrf_token" value=csrf_token())
      input(name="name" value=old.name)
      if errors.name
        each e in errors.name
          span.error.name= e
      input(name="age" value=old.age)
      if errors.age
        each e in errors.age
          span.error.age= e
`,
  "mail/welcome.subject.txt": "Welcome, #{name}!\n",
  "mail/welcome.txt": "Hello #{name},\n\nyour link: #{link}\n",
  "mail/welcome.pug": "p Hello #{name}\na(href=link) Start\n",
  "../static/site.css": "body{}\n",
};

/** The battery test app, served on 127.0.0.1. */
export interface BatteryApp {
  readonly host: Host;
  readonly url: string;
  close(): Promise<void>;
}

/** Builds and serves the battery test app (extra config keys win). */
export async function startBatteryApp(config: Record<string, unknown> = {}): Promise<BatteryApp> {
  const root = mkdtempSync(join(tmpdir(), "fw-b-batteries-"));
  for (const [path, content] of Object.entries(TEMPLATES)) {
    const file = join(root, "templates", path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  const host = await createApp({
    root,
    modules: [{ name: "main", exports: { Forms, Api, XmlApi, Session, Private, PrivateApi, Signup, Counter, Mailer } }],
    auth: { loadUser: (id) => USERS[id] },
    config: {
      env: "test",
      logRequests: false,
      secretKey: "battery-test-secret-key-0123456789",
      dbUrl: "sqlite::memory:",
      ...config,
    },
  });
  const server = await host.listen(0, "127.0.0.1");
  return {
    host,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await host.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
