/**
 * The realtime battery's rules, written once and run by both frameworks' tests against real
 * servers on 127.0.0.1: a view's broadcast reaches a Node SSE subscriber once and in order; two
 * app instances on one Redis each deliver the broadcasts made on either; another user's private
 * channel is 403; `client.realtime` lists what a view or a job broadcast. Over a WebSocket, the
 * handshake carries the session cookie: the signed-in user's own channel is subscribed, another
 * user's is refused, and a handshake from another origin is refused before the upgrade.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { WebSocket } from "ws";
import { openEventStream } from "../event-stream.js";
import { requireServer, serverUrls } from "../index.js";

// biome-ignore lint/suspicious/noExplicitAny: a decorator of any framework
type Decorator = (value: any, context: any) => any;

/** A built app, as these cases use it. */
export interface RealtimeHost {
  listen(port: number, hostname: string): Promise<{ address(): unknown }>;
  close(): Promise<void>;
}

/** The framework under test, as {@link realtimeCases} needs it. */
export interface RealtimeSubject {
  readonly name: string;
  /** True when generated paths end with `/`. */
  readonly trailingSlash: boolean;
  /** The view base class (its views have `ctx`). */
  readonly Base: abstract new (
    ...args: never[]
  ) => object;
  /** The JSON decorator (class). */
  readonly json: Decorator;
  /** The framework's `createApp`. */
  createApp(options: {
    root: string;
    modules: { name: string; exports: Record<string, unknown> }[];
    config: Record<string, unknown>;
    auth: { loadUser(id: string): unknown; userId(user: unknown): unknown };
  }): Promise<RealtimeHost>;
  /** The framework's `testClient`. */
  testClient(options: {
    modules: { name: string; exports: Record<string, unknown> }[];
    config: Record<string, unknown>;
  }): Promise<{
    get(path: string): Promise<{ status: number }>;
    readonly realtime: {
      last(channel?: string): { event: string; data: unknown } | undefined;
      broadcasts(channel?: string): readonly unknown[];
    };
    readonly jobs: { runAll(): Promise<unknown> };
    close(): Promise<void>;
  }>;
  /** The framework's `broadcast`. */
  broadcast(channel: string, event: string, data: unknown): Promise<string>;
  /** The framework's `login(ctx, user)`. */
  login(ctx: unknown, user: unknown): Promise<void>;
  /** The framework's `defineJob`. */
  defineJob(definition: { name: string; handle(payload: unknown): unknown }): {
    dispatch(payload: unknown): Promise<unknown>;
  };
}

interface User {
  readonly id: number;
}

/** Registers the realtime tests of one framework (call at the top level of its test file). */
export function realtimeCases(subject: RealtimeSubject): void {
  const Base = subject.Base as abstract new () => object;
  const p = (path: string) => (subject.trailingSlash ? `${path}/` : path);
  const ctxOf = (view: object) => (view as { ctx: unknown }).ctx;
  const users = new Map<string, User>([
    ["7", { id: 7 }],
    ["8", { id: 8 }],
  ]);
  const auth = { loadUser: (id: string) => users.get(id), userId: (user: unknown) => (user as User).id };
  const channels = {
    news: { public: true },
    "orders/:id": {
      authorize: ({ user, params }: { user?: User; params: { id: string } }) => user?.id === Number(params.id),
    },
  };
  const Announce = subject.defineJob({
    name: `announce-${subject.name}`,
    handle: (payload) => subject.broadcast("news", "announced", payload),
  });

  @subject.json
  class Signin extends Base {
    // A test's shortcut: signs in as the user of the id (a real app checks a password first).
    async show(id: string) {
      await subject.login(ctxOf(this), users.get(id));
      return { id };
    }
  }
  @subject.json
  class Touch extends Base {
    async show(id: string) {
      return { id: await subject.broadcast(`orders/${id}`, "updated", { order: Number(id) }) };
    }
  }
  @subject.json
  class Announcement extends Base {
    async show(text: string) {
      await Announce.dispatch({ text });
      return { queued: true };
    }
  }
  const modules = [
    { name: "signin", exports: { Signin } },
    { name: "touch", exports: { Touch } },
    { name: "announcement", exports: { Announcement } },
  ];
  const base = { batteries: { data: false, services: false } };

  describe(`${subject.name}: realtime over SSE on real servers`, () => {
    const prefix = `fwrt-${subject.name}-${randomBytes(4).toString("hex")}`;
    const hosts: RealtimeHost[] = [];
    const urls: string[] = [];
    before(async () => {
      await requireServer("redis");
      for (let i = 0; i < 2; i++) {
        const host = await subject.createApp({
          root: process.cwd(),
          modules,
          auth,
          config: { ...base, realtimeUrl: serverUrls.redis, realtime: { channels, prefix } },
        });
        hosts.push(host);
        const server = await host.listen(0, "127.0.0.1");
        urls.push(`http://127.0.0.1:${(server.address() as { port: number }).port}`);
      }
    });
    // The channels' Redis keys expire by themselves (the replay window's age and a minute).
    after(async () => {
      for (const host of hosts) await host.close();
    });

    const signIn = async (url: string, id: string): Promise<string> => {
      const answer = await fetch(`${url}${p(`/signin/show/${id}`)}`, { redirect: "manual" });
      assert.equal(answer.status, 200);
      return answer.headers
        .getSetCookie()
        .map((cookie) => cookie.split(";")[0])
        .join("; ");
    };

    test("a view's broadcasts reach the owner's stream on both instances, once and in order", async () => {
      const [one, two] = urls as [string, string];
      const cookieOne = await signIn(one, "7");
      const cookieTwo = await signIn(two, "7");
      const onOne = await openEventStream(`${one}/_events?channel=orders/7`, { cookie: cookieOne });
      const onTwo = await openEventStream(`${two}/_events?channel=orders/7&channel=news`, { cookie: cookieTwo });
      assert.equal(onOne.status, 200, onOne.body);
      assert.equal(onTwo.status, 200, onTwo.body);
      await onOne.waitFor(1, "ready");
      await onTwo.waitFor(1, "ready");
      for (let n = 0; n < 40; n++) {
        const answer = await fetch(`${n % 2 === 0 ? one : two}${p("/touch/show/7")}`);
        assert.equal(answer.status, 200);
      }
      const gotOne = await onOne.waitFor(40, "updated");
      const gotTwo = await onTwo.waitFor(40, "updated");
      assert.deepEqual(
        gotOne.map((event) => event.id),
        gotTwo.map((event) => event.id?.split(",")[0]),
      );
      assert.equal(new Set(gotOne.map((event) => event.id)).size, 40);
      assert.deepEqual((gotOne[0]!.json as { data: unknown }).data, { order: 7 });
      onOne.close();
      onTwo.close();
    });

    test("a WebSocket handshake reads the session: the user's own channel is subscribed, another's refused", async () => {
      const [one] = urls as [string];
      const cookie = await signIn(one, "7");
      const target = `${one.replace(/^http/, "ws")}/_events`;
      const socket = new WebSocket(target, { headers: { cookie }, origin: one });
      const frames: Array<Record<string, unknown>> = [];
      socket.on("message", (data) => frames.push(JSON.parse(String(data)) as Record<string, unknown>));
      await new Promise((resolve, reject) => {
        socket.once("open", resolve);
        socket.once("error", reject);
      });
      socket.send(JSON.stringify({ type: "subscribe", channel: "orders/7" }));
      socket.send(JSON.stringify({ type: "subscribe", channel: "orders/8" }));
      for (let i = 0; i < 1200 && frames.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      assert.deepEqual(
        frames.map((frame) => [frame["type"], frame["channel"], frame["code"]]),
        [
          ["subscribed", "orders/7", undefined],
          ["error", "orders/8", "E_REALTIME_FORBIDDEN"],
        ],
      );
      socket.close();
      // The same cookie from a page of another site: 403 before the upgrade.
      const refused = await new Promise<number>((resolve, reject) => {
        const crossSite = new WebSocket(target, { headers: { cookie }, origin: "https://elsewhere.example" });
        crossSite.once("unexpected-response", (_req, res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        crossSite.once("open", () => reject(new Error("a cross-site handshake was accepted")));
      });
      assert.equal(refused, 403);
    });

    test("another user's private channel is refused with 403; a public one needs no login", async () => {
      const [one] = urls as [string];
      const cookie = await signIn(one, "8");
      const refused = await openEventStream(`${one}/_events?channel=orders/7`, {
        cookie,
        accept: "application/json",
      });
      assert.equal(refused.status, 403);
      const anonymous = await openEventStream(`${one}/_events?channel=orders/7`);
      assert.equal(anonymous.status, 403);
      const open = await openEventStream(`${one}/_events?channel=news`);
      assert.equal(open.status, 200);
      open.close();
    });
  });

  test(`${subject.name}: client.realtime lists what a view and a job broadcast`, async () => {
    const client = await subject.testClient({ modules, config: { ...base, realtime: { channels } } });
    try {
      assert.equal((await client.get(p("/touch/show/42"))).status, 200);
      assert.deepEqual(client.realtime.last("orders/42"), {
        ...client.realtime.last("orders/42"),
        event: "updated",
        data: { order: 42 },
      });
      assert.equal((await client.get(p("/announcement/show/hello"))).status, 200);
      await client.jobs.runAll();
      assert.deepEqual(client.realtime.last("news")?.data, { text: "hello" });
      assert.equal(client.realtime.broadcasts().length, 2);
    } finally {
      await client.close();
    }
  });
}
