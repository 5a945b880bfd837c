/**
 * The words the data battery puts on a page (pagination labels, the flash of a refused form) in
 * the request's language, when a translations plugin put a translator on `ctx.state` (koa-host's
 * TRANSLATE_STATE_KEY); `undefined` otherwise, and the caller keeps its English default.
 */
import { TRANSLATE_STATE_KEY } from "@fwkit/koa-host/plugin";

/** The translation of `key` for this request, or undefined when there is no translator or no such key. */
export function requestText(
  ctx: { state?: unknown },
  key: string,
  values?: Readonly<Record<string, unknown>>,
): string | undefined {
  const translate = (ctx.state as Record<string, unknown> | undefined)?.[TRANSLATE_STATE_KEY];
  if (typeof translate !== "function") return undefined;
  const text = (translate as (key: string, values?: Readonly<Record<string, unknown>>) => unknown)(key, values);
  return typeof text === "string" && text !== key ? text : undefined;
}

/**
 * The request's language (`fr`) when a translations plugin is on, else undefined. Reading the
 * translator makes the plugin choose the language, which it keeps on `ctx.state.locale`.
 */
export function requestLanguage(ctx: { state?: unknown }): string | undefined {
  const state = ctx.state as Record<string, unknown> | undefined;
  if (typeof state?.[TRANSLATE_STATE_KEY] !== "function") return undefined;
  const locale = state["locale"];
  return typeof locale === "string" ? locale : undefined;
}
