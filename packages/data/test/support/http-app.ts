/**
 * A small real Koa app for the validation and flash tests: koa-session (signed cookie), koa-body,
 * the data package's flash and validation middleware, and routes that validate body, query and
 * files. Served on 127.0.0.1 on a free port.
 */
import type { AddressInfo } from "node:net";
import Koa, { type Middleware } from "koa";
import { koaBody } from "koa-body";
import session from "koa-session";
import { z } from "zod";
import { flash, pageParams, validate } from "../../src/index.js";
import { flashLocals, flashMiddleware, validationErrorMiddleware } from "../../src/plugin-api.js";

/** The schema shared by the JSON and HTML routes. */
export const signupSchema = z.object({
  email: z.email(),
  name: z.string().min(2, "Name must have at least 2 characters"),
  age: z.coerce.number().int().min(13),
  password: z.string().min(8),
});

const uploadSchema = z.object({
  avatar: z.looseObject({
    size: z.number().max(1000, "The avatar must be 1000 bytes or less"),
    mimetype: z.enum(["image/png"], "The avatar must be a PNG image"),
  }),
});

const searchSchema = z.object({ q: z.string().min(1), limit: z.coerce.number().int().max(50).default(10) });

type Route = { method: string; path: string; kind?: string; handler: Middleware };

const routes: Route[] = [
  {
    method: "POST",
    path: "/signup",
    handler: async (ctx) => {
      const input = await validate(ctx, signupSchema);
      const age: number = input.age;
      flash(ctx, "success", `Welcome, ${input.name} (${age})`);
      ctx.redirect("/signup");
    },
  },
  { method: "GET", path: "/signup", handler: (ctx) => void (ctx.body = flashLocals(ctx)) },
  {
    method: "POST",
    path: "/api/users",
    kind: "json",
    handler: async (ctx) => {
      const input = await validate(ctx, signupSchema);
      ctx.status = 201;
      ctx.body = { email: input.email, age: input.age };
    },
  },
  {
    method: "POST",
    path: "/api/users.xml",
    kind: "xml",
    handler: async (ctx) => {
      await validate(ctx, signupSchema);
      ctx.body = "<response/>";
    },
  },
  {
    method: "GET",
    path: "/search",
    kind: "json",
    handler: async (ctx) => {
      ctx.body = await validate(ctx, searchSchema, { from: "query" });
    },
  },
  {
    method: "POST",
    path: "/upload",
    kind: "json",
    handler: async (ctx) => {
      const { avatar } = await validate(ctx, uploadSchema, { from: "files" });
      ctx.body = { size: avatar.size, type: avatar.mimetype };
    },
  },
  {
    method: "GET",
    path: "/list",
    handler: (ctx) => {
      ctx.body = pageParams(ctx.query, { maxPerPage: 50 });
    },
  },
  {
    method: "GET",
    path: "/flash-now",
    handler: (ctx) => {
      flash(ctx, "info", "shown on this page");
      ctx.body = flashLocals(ctx);
    },
  },
];

/** Options of {@link startApp}. */
export interface AppOptions {
  /** Leave out koa-session (flash then has nowhere to go). */
  readonly withoutSession?: boolean;
}

/** A running test app. */
export interface TestApp {
  readonly origin: string;
  close(): Promise<void>;
}

/** Starts the app on 127.0.0.1. */
export async function startApp(options: AppOptions = {}): Promise<TestApp> {
  const app = new Koa();
  app.keys = ["data-tests-secret"];
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const { status = 500, message = "error" } = error as { status?: number; message?: string };
      ctx.status = status;
      ctx.body = { error: { status, message: status < 500 ? message : "Internal Server Error" } };
    }
  });
  if (!options.withoutSession) app.use(session({ signed: true }, app));
  app.use(koaBody({ multipart: true }));
  app.use(flashMiddleware());
  app.use(validationErrorMiddleware());
  for (const route of routes) {
    const perRoute = validationErrorMiddleware(route.kind);
    app.use(async (ctx, next) => {
      if (ctx.method !== route.method || ctx.path !== route.path) return next();
      await perRoute(ctx, async () => {
        await route.handler(ctx, next);
      });
    });
  }
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
