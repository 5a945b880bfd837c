/**
 * The words the data battery puts on a page (pagination labels, the flash of a refused form) in
 * the request's language, when a translations plugin put a translator on the request (koa-host's
 * `translatorSlot`); `undefined` otherwise, and the caller keeps its English default.
 */
import { localeSlot, translatorSlot } from "@fwkit/koa-host/plugin";

/** The translation of `key` for this request, or undefined when there is no translator or no such key. */
export function requestText(
  ctx: { state?: unknown },
  key: string,
  values?: Readonly<Record<string, unknown>>,
): string | undefined {
  const translate = translatorSlot.get(ctx);
  if (typeof translate !== "function") return undefined;
  const text: unknown = translate(key, values);
  return typeof text === "string" && text !== key ? text : undefined;
}

/**
 * The request's language (`fr`) when a translations plugin is on, else undefined. Reading the
 * translator makes the plugin choose the language, which it keeps in koa-host's `localeSlot`.
 */
export function requestLanguage(ctx: { state?: unknown }): string | undefined {
  if (typeof translatorSlot.get(ctx) !== "function") return undefined;
  const locale = localeSlot.get(ctx);
  return typeof locale === "string" ? locale : undefined;
}
