// A test app with the contrib modules on: a temporary root with a SQLite file, a test SMTP server,
// an app page, a JSON view and an @admin class of the app.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { startSmtp, type ReceivedMail, type SmtpServer } from "@fwkit/test-servers";
import { connect } from "@fwkit/data";
import { createApp, FwB, HTTPError, type Host } from "../../src/index.js";
import { admin, createContribModels, type UserRow } from "../../src/contrib/index.js";
import { renderJson } from "../../src/decorators/index.js";

export class Index extends FwB {
  index() {
    return { title: "Home" };
  }
  broken() {
    throw new Error("kaput");
  }
  teapot() {
    throw HTTPError.Forbidden("No tea for you");
  }
  kettle() {
    throw HTTPError.ImATeapot("Short and stout");
  }
}

@renderJson
export class Api extends FwB {
  index() {
    return { ok: true };
  }
  missing() {
    throw HTTPError.NotFound("No such thing");
  }
}

@admin({ title: "Tea catalogue", icon: "cup" })
export class Catalog extends FwB {
  index() {
    return { title: "Catalogue admin", teas: ["Assam", "Sencha"] };
  }
}

const TEMPLATES: Record<string, string> = {
  "main/Index/index.pug": "extends /layouts/default\nblock content\n  h1.home Home page\n",
  "main/Catalog/index.pug":
    "extends /contrib/admin/layout\nblock admin\n  h1.catalog= title\n  ul\n    each tea in teas\n      li= tea\n",
};

/** A running contrib test app. */
export interface ContribApp {
  readonly host: Host;
  readonly url: string;
  readonly root: string;
  readonly smtp: SmtpServer;
  /** The last built-in captcha answer shown (through the `onChallenge` hook). */
  readonly captcha: { last: string };
  /** The app's contrib models on the same database (for setting up and checking rows). */
  readonly models: ReturnType<typeof createContribModels>;
  /** Waits for the next mail and returns it with its text body. */
  nextMail(): Promise<ReceivedMail & { text: string }>;
  close(): Promise<void>;
}

/** Options of {@link startContribApp}. */
export interface ContribAppOptions {
  readonly contrib?: Record<string, unknown>;
  readonly config?: Record<string, unknown>;
  readonly templates?: Record<string, string>;
  readonly root?: string;
}

/** Starts the contrib test app (every module on unless `contrib` says otherwise). */
export async function startContribApp(options: ContribAppOptions = {}): Promise<ContribApp> {
  const root = options.root ?? mkdtempSync(join(tmpdir(), "fw-b-contrib-"));
  for (const [path, content] of Object.entries({ ...TEMPLATES, ...options.templates })) {
    const file = join(root, path.startsWith("../") ? path.slice(3) : join("templates", path));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  const smtp = await startSmtp();
  const captcha = { last: "" };
  const contrib = options.contrib ?? {
    auth: true,
    admin: true,
    contact: { recipients: ["team@example.test"] },
    errors: true,
    maintenance: { cacheMs: 0 },
    captcha: { onChallenge: (answer: string) => (captcha.last = answer) },
  };
  const host = await createApp({
    root,
    modules: [{ name: "main", exports: { Index, Api, Catalog } }],
    config: {
      env: "test",
      logRequests: false,
      secretKey: crypto.randomUUID(),
      // The test environment takes only a database named for tests (never the development one).
      dbUrl: "sqlite:data/test.db",
      autoMigrate: true,
      bcryptCost: 4,
      mailUrl: smtp.url,
      mailFrom: "Tea Shop <shop@example.test>",
      siteName: "Tea Shop",
      contrib,
      ...options.config,
    },
  }).catch(async (error: unknown) => {
    await smtp.close();
    if (!options.root) rmSync(root, { recursive: true, force: true });
    throw error;
  });
  const server = await host.listen(0, "127.0.0.1");
  // The test's own connection to the app's SQLite file, to set up and check rows.
  const db = await connect(String(host.config["dbUrl"]), { root });
  const models = createContribModels();
  models.bind(db.knex);
  return {
    host,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    root,
    smtp,
    captcha,
    models,
    async nextMail() {
      const mail = await smtp.waitForMail();
      return Object.assign(mail, { text: mail.parsed.text ?? "" });
    },
    async close() {
      await host.close();
      await db.close();
      await smtp.close();
      if (!options.root) rmSync(root, { recursive: true, force: true });
    },
  };
}

/** The first link in a mail's text that contains `path`. */
export function linkIn(text: string, path: string): string {
  const match = new RegExp(`https?://[^\\s]*${path.replace(/[/]/g, "\\/")}[^\\s]*`).exec(text);
  if (!match) throw new Error(`no ${path} link in the mail:\n${text}`);
  return match[0];
}

/** Creates a user directly in the database (password hashed with cost 4). */
export async function createUser(
  app: ContribApp,
  fields: Partial<UserRow> & { username: string; password?: string },
): Promise<UserRow> {
  const { hashPassword } = await import("@fwkit/security");
  const { password, ...rest } = fields;
  return app.models.users.create({
    email: `${fields.username}@example.test`,
    name: fields.username,
    password_hash: password ? await hashPassword(password, { bcryptCost: 4 }) : null,
    role: "member",
    active: true,
    email_verified_at: new Date(),
    locale: null,
    last_login_at: null,
    deleted_at: null,
    ...rest,
  } as UserRow);
}
