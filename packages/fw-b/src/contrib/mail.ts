import type { Context } from "koa";
import { publicUrl, runtimeOf } from "@fwkit/koa-host/plugin";
import { contribOf, translatorOf } from "./runtime.js";

/**
 * The absolute URL of a path of this app, for links in mails and OAuth redirects: config
 * `baseUrl` (`BASE_URL`, required in production), else the server's own address. Never the
 * request's Host or X-Forwarded-Host: the client writes those.
 */
export function absoluteUrl(ctx: Context, path: string): string {
  const host = runtimeOf(ctx);
  return publicUrl(ctx, { baseUrl: contribOf(ctx).baseUrl, env: host.config.env, basePath: host.basePath }, path);
}

/**
 * Sends a contrib mail (`templates/contrib/<module>/mail/<name>.*`, overridable in the app) in the
 * request's language. A failure is logged and reported as false: the page still answers, and
 * says nothing that would tell whether an account exists.
 */
export async function sendContribMail(ctx: Context, to: string | readonly string[], template: string, context: Record<string, unknown>, extra: { replyTo?: string } = {}): Promise<boolean> {
  const runtime = contribOf(ctx);
  try {
    await runtime.mailer().sendMail({ to, template: `contrib/${template}`, context: { t: translatorOf(ctx), ...context }, ...extra });
    return true;
  } catch (error) {
    ctx.log.error({ err: error, template }, `fw-b contrib: the ${template} mail was not sent`);
    return false;
  }
}
