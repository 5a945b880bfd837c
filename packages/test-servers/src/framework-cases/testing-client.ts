/**
 * The test client's rules, written once and run by both frameworks' tests against their
 * `testClient` (from `fw-a/testing`, `fw-b/testing`): in-memory requests, cookies kept, the CSRF
 * token sent for unsafe verbs, `loginAs` through the security battery, the app's URLs, and reading
 * an answer in a format it does not have refused with E_TEST_RESPONSE_FORMAT.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";

// `any` so that each framework's own, more precise decorator and view types are accepted.
// biome-ignore lint/suspicious/noExplicitAny: a decorator of any framework
type Decorator = (value: any, context: any) => any;

/** One answer of the test client, as these cases read it. */
export interface TestClientAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, unknown>>;
  readonly type: string;
  text(): string;
  json(): unknown;
  xml(): { find(name: string): { readonly text: string } | undefined };
}

/** Options of a request of the test client, as these cases send them. */
export interface TestClientRequest {
  readonly json?: unknown;
  readonly form?: Record<string, string>;
  readonly csrf?: boolean;
  readonly idempotencyKey?: string | false;
}

/** The framework's test client, as these cases use it. */
export interface TestClientLike {
  get(path: string): Promise<TestClientAnswer>;
  post(path: string, init?: TestClientRequest): Promise<TestClientAnswer>;
  loginAs(user: unknown): Promise<void>;
  logout(): void;
  csrfToken(): Promise<string | undefined>;
  urlFor(target: string, params?: Record<string, string>): string;
  readonly cookies: { names(): string[] };
  /** The mails the app sent (the test environment's memory transport). */
  readonly mail: {
    sent(filter?: {
      to?: string;
      subject?: string | RegExp;
    }): Array<{ to: readonly string[]; subject: string; links: readonly string[] }>;
    last(filter?: { to?: string; subject?: string | RegExp } | string): {
      subject: string;
      text?: string;
      links: readonly string[];
    };
    clear(): void;
  };
  close(): Promise<void>;
}

/** The framework under test, as {@link testClientCases} needs it. */
export interface TestClientSubject {
  readonly name: string;
  /** True when generated paths end with `/`. */
  readonly trailingSlash: boolean;
  /** The view base class (its views have `ctx`). */
  readonly Base: abstract new (
    ...args: never[]
  ) => object;
  /** Makes the framework's test client of these modules. */
  testClient(options: {
    modules: { name: string; exports: Record<string, unknown> }[];
    root?: string;
    config?: Record<string, unknown>;
    auth?: { loadUser(id: string): unknown; userId?(user: unknown): unknown };
  }): Promise<TestClientLike>;
  /** The JSON decorator (class). */
  readonly json: Decorator;
  /** The XML decorator (class), when the framework has one. */
  readonly xml?: Decorator;
  /** The login-required decorator (method). */
  readonly loginRequired: Decorator;
  /** The logged-in user of a request. */
  currentUser(ctx: unknown): { readonly name: string } | undefined;
}

interface User {
  readonly id: number;
  readonly name: string;
}

const SECURE = { batteries: { security: true, data: false, services: false } };
const BARE = { batteries: { security: false, data: false, services: false } };
const refusedFormat = (error: Error & { code?: string }) => error.code === "E_TEST_RESPONSE_FORMAT";

/** Registers the test-client tests of one framework (call at the top level of its test file). */
export function testClientCases(subject: TestClientSubject): void {
  const p = (path: string) => (subject.trailingSlash ? `${path}/` : path);
  const users = new Map<string, User>([["7", { id: 7, name: "Ada" }]]);
  const auth = { loadUser: (id: string) => users.get(id), userId: (user: unknown) => (user as User).id };
  const ctxOf = (view: object) => (view as { ctx: { request: { body?: unknown } } }).ctx;
  const Base = subject.Base as abstract new () => object;

  @subject.json
  class Notes extends Base {
    index() {
      return { user: subject.currentUser(ctxOf(this))?.name ?? null };
    }
    post() {
      return { saved: (ctxOf(this).request.body as { title?: string }).title ?? null };
    }
    @subject.loginRequired
    mine() {
      return { owner: subject.currentUser(ctxOf(this))!.name };
    }
    show(slug: string) {
      return { slug };
    }
  }
  class Index extends Base {
    index() {
      return "<p>home</p>";
    }
  }
  const exports: Record<string, unknown> = { Notes, Index };
  if (subject.xml) {
    @subject.xml
    class Account extends Base {
      index() {
        return { name: subject.currentUser(ctxOf(this))?.name ?? "nobody" };
      }
    }
    exports["Account"] = Account;
  }
  const modules = [{ name: "notes", exports }];

  describe(`${subject.name}/testing testClient`, () => {
    let client: TestClientLike;
    before(async () => {
      client = await subject.testClient({ modules, config: SECURE, auth });
    });
    after(() => client.close());

    test("GET reads JSON and HTML answers with no port opened; json() of HTML names what came back", async () => {
      const home = await client.get("/");
      assert.equal(home.status, 200);
      assert.equal(home.type, "text/html");
      assert.equal(home.text(), "<p>home</p>");
      assert.throws(
        () => home.json(),
        (error: Error & { code?: string }) => refusedFormat(error) && /status 200, text\/html/.test(error.message),
      );
      assert.deepEqual((await client.get(p("/notes"))).json(), { user: null });
    });

    test("an unsafe verb carries the session's CSRF token (JSON and form bodies); csrf: false shows the app's refusal", async () => {
      const saved = await client.post(p("/notes"), { json: { title: "first" } });
      assert.equal(saved.status, 200, saved.text());
      assert.deepEqual(saved.json(), { saved: "first" });
      assert.deepEqual((await client.post(p("/notes"), { form: { title: "second" } })).json(), { saved: "second" });
      const refused = await client.post(p("/notes"), { json: { title: "x" }, csrf: false });
      assert.equal(refused.status, 403);
      assert.equal(refused.type, "application/json");
      assert.throws(() => refused.xml(), refusedFormat);
    });

    test("an unsafe verb carries a fresh Idempotency-Key; idempotencyKey: a key sent twice replays the first answer", async () => {
      const keyed = await subject.testClient({
        modules,
        config: { ...SECURE, idempotency: { unsafeMethods: true } },
        auth,
      });
      try {
        // Fresh keys: two posts are two requests.
        const one = await keyed.post(p("/notes"), { json: { title: "same" } });
        const two = await keyed.post(p("/notes"), { json: { title: "same" } });
        assert.equal(one.headers["idempotent-replayed"], undefined);
        assert.equal(two.headers["idempotent-replayed"], undefined, "each post got its own key");
        await keyed.post(p("/notes"), { json: { title: "once" }, idempotencyKey: "test-client-1" });
        const again = await keyed.post(p("/notes"), { json: { title: "once" }, idempotencyKey: "test-client-1" });
        assert.equal(again.headers["idempotent-replayed"], "true");
        assert.deepEqual(again.json(), { saved: "once" });
        const bad = await keyed.post(p("/notes"), { json: { title: "x" }, idempotencyKey: "not a key" });
        assert.equal(bad.status, 400, "the client sends the key it is given, even a malformed one");
        const none = await keyed.post(p("/notes"), { json: { title: "x" }, idempotencyKey: false });
        assert.equal(none.status, 200);
      } finally {
        await keyed.close();
      }
    });

    test("loginAs logs the user in through the security battery; cookies carry the session; logout ends it", async () => {
      assert.equal((await client.get(p("/notes/mine"))).status, 401);
      await client.loginAs(users.get("7"));
      assert.ok(client.cookies.names().length > 0);
      assert.deepEqual((await client.get(p("/notes/mine"))).json(), { owner: "Ada" });
      assert.deepEqual((await client.post(p("/notes"), { json: { title: "after login" } })).json(), {
        saved: "after login",
      });
      if (subject.xml) assert.equal((await client.get(p("/account"))).xml().find("name")?.text, "Ada");
      client.logout();
      assert.equal((await client.get(p("/notes/mine"))).status, 401);
    });

    test("urlFor builds the app's URLs", async () => {
      assert.equal(client.urlFor("Notes.show", { slug: "a b" }), p("/notes/show/a%20b"));
      assert.deepEqual((await client.get(client.urlFor("Notes.show", { slug: "x" }))).json(), { slug: "x" });
    });
  });

  describe(`${subject.name}/testing testClient without the security battery`, () => {
    test("loginAs fails with E_TEST_CLIENT_LOGIN, and no token is sent", async () => {
      const client = await subject.testClient({ modules, config: BARE });
      try {
        await assert.rejects(
          client.loginAs({ id: 1 }),
          (error: Error & { code?: string }) => error.code === "E_TEST_CLIENT_LOGIN",
        );
        assert.equal(await client.csrfToken(), undefined);
        assert.deepEqual((await client.post(p("/notes"), { json: { title: "d" } })).json(), { saved: "d" });
      } finally {
        await client.close();
      }
    });
  });

  describe(`${subject.name}/testing client.mail`, () => {
    @subject.json
    class Signup extends Base {
      async post() {
        const ctx = ctxOf(this) as unknown as {
          request: { body: { email: string } };
          state: { services: { mailer: { sendMail(mail: object): Promise<unknown> } } };
        };
        const { email } = ctx.request.body;
        await ctx.state.services.mailer.sendMail({
          to: email,
          subject: "Welcome",
          text: `Confirm your address: https://app.example.test/verify/${encodeURIComponent(email)}`,
        });
        return { sent: true };
      }
    }
    const mailModules = [{ name: "signup", exports: { Signup } }];
    const services = { batteries: { security: false, data: false, services: true } };

    test("a mail the app sends in a test is kept, not sent: sent(), last(to) with its links, clear()", async () => {
      const client = await subject.testClient({ modules: mailModules, config: services });
      try {
        const answer = await client.post(p("/signup"), { json: { email: "ada@example.test" } });
        assert.equal(answer.status, 200, answer.text());
        await client.post(p("/signup"), { json: { email: "bob@example.test" } });
        assert.deepEqual(
          client.mail.sent().map((mail) => [mail.to, mail.subject]),
          [
            [["ada@example.test"], "Welcome"],
            [["bob@example.test"], "Welcome"],
          ],
        );
        const ada = client.mail.last("ada@example.test");
        assert.deepEqual(ada.links, ["https://app.example.test/verify/ada%40example.test"]);
        assert.equal(client.mail.sent({ subject: /welcome/i, to: "bob@example.test" }).length, 1);
        assert.throws(
          () => client.mail.last("eve@example.test"),
          (error: Error & { code?: string }) =>
            error.code === "E_TEST_MAIL_NOT_SENT" &&
            /to eve@example\.test.*"Welcome" to ada@example\.test/.test(error.message),
        );
        client.mail.clear();
        assert.deepEqual(client.mail.sent(), []);
      } finally {
        await client.close();
      }
    });

    test("a test's config with a real mail transport is named when client.mail is read", async () => {
      const client = await subject.testClient({
        modules: mailModules,
        config: { ...services, mailUrl: "smtp://127.0.0.1:1", mailFrom: "App <app@example.test>" },
      });
      try {
        assert.throws(
          () => client.mail.sent(),
          (error: Error & { code?: string }) => error.code === "E_TEST_MAIL_UNAVAILABLE" && /smtp/.test(error.message),
        );
      } finally {
        await client.close();
      }
    });
  });

  describe(`${subject.name}/testing testClient and the development database`, () => {
    test("a DB_URL in the app's .env is never the test database, whatever the test's config says", async () => {
      const root = mkdtempSync(join(tmpdir(), `${subject.name}-devdb-`));
      const development = join(root, "development.db");
      writeFileSync(join(root, ".env"), `DB_URL=sqlite:${development}\n`);
      const data = { batteries: { security: false, data: true, services: false }, autoMigrate: true };
      try {
        // As the generated tests build it (config names SQLite in memory), and with no database named.
        for (const config of [{ ...data, dbUrl: "sqlite::memory:" }, data]) {
          const client = await subject.testClient({ modules, root, config });
          await client.close();
        }
        assert.equal(existsSync(development), false, "the development database was opened by a test");
        // A test database that is the development one is refused before anything is opened.
        await assert.rejects(
          subject.testClient({ modules, root, config: { ...data, dbUrl: `sqlite:${development}` } }),
          (error: Error & { code?: string }) => error.code === "E_TEST_DB_URL",
        );
        assert.equal(existsSync(development), false);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });
  });
}
