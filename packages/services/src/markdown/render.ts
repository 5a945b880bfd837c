/**
 * The one Markdown renderer of both frameworks: marked (GitHub-flavoured) for the conversion, and
 * for text that is not the app's own a maintained HTML sanitiser (sanitize-html) over its output.
 */
import { createRequire } from "node:module";
import { escapeHtml } from "@fwkit/koa-host/plugin";
import type { Marked, Tokens } from "marked";
import type sanitizeHtmlType from "sanitize-html";
import { MARKDOWN_ALLOW_LIST } from "./allow-list.js";

/** Options of {@link renderMarkdown}. */
export interface MarkdownOptions {
  /**
   * The text is the app's own (its `.md` templates, a Pug `:markdown` block): raw HTML and every link
   * scheme are kept. Never set it for text a user or the database supplied. Default false: the HTML
   * is sanitised against an allow-list.
   */
  readonly trusted?: boolean;
}

const require = createRequire(import.meta.url);
let renderers: { readonly trusted: Marked; readonly safe: Marked } | undefined;

/**
 * marked's two renderers, made with the first text rendered, not when a framework is imported (its
 * module builds its rules when loaded: a cost every start paid).
 */
function markedRenderers(): { readonly trusted: Marked; readonly safe: Marked } {
  if (renderers) return renderers;
  const { Marked: MarkedClass } = require("marked") as typeof import("marked");
  renderers = {
    trusted: new MarkedClass({ gfm: true, async: false }),
    // Raw HTML in user text is shown as the text the user typed; the sanitiser then checks what
    // Markdown itself produced (links, images), so neither layer alone is trusted to be complete.
    safe: new MarkedClass({
      gfm: true,
      async: false,
      renderer: {
        html(token: Tokens.HTML | Tokens.Tag) {
          return escapeHtml(token.text);
        },
      },
    }),
  };
  return renderers;
}

let sanitizer: typeof sanitizeHtmlType | undefined;

/** sanitize-html and its parser load with the first untrusted text, not when a framework is imported. */
function sanitize(html: string): string {
  sanitizer ??= require("sanitize-html") as typeof sanitizeHtmlType;
  return sanitizer(html, MARKDOWN_ALLOW_LIST);
}

/**
 * Converts Markdown to HTML. Safe for user text by default: raw HTML is shown as text and the output
 * keeps only allow-listed tags, attributes and URL schemes (http, https, mailto, relative).
 * `null`/`undefined` render as nothing; other values as their text.
 */
export function renderMarkdown(text: unknown, options: MarkdownOptions = {}): string {
  const source = text === undefined || text === null ? "" : String(text);
  const { trusted, safe } = markedRenderers();
  if (options.trusted === true) return trusted.parse(source, { async: false }) as string;
  return sanitize(safe.parse(source, { async: false }) as string);
}

/** Renders the app's own Markdown (templates, includes, a Pug `:markdown` block): trusted, HTML kept. */
export function renderTrustedMarkdown(text: string): string {
  return renderMarkdown(text, { trusted: true });
}
