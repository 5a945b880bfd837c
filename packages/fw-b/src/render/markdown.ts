import { Marked, type Token, type Tokens } from "marked";

/** Options of {@link markdown}. */
export interface MarkdownOptions {
  /**
   * Keep raw HTML and every link scheme, for trusted text such as the app's own `.md` templates.
   * Default false: raw HTML is shown as text and `javascript:`-style links are neutralised, so
   * user-supplied text is safe to render.
   */
  readonly trusted?: boolean;
}

const UNSAFE_URL = /^\s*(javascript|vbscript|data):/i;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const trusted = new Marked({ gfm: true, async: false });
const safe = new Marked({
  gfm: true,
  async: false,
  renderer: {
    html(token: Tokens.HTML | Tokens.Tag) {
      return escapeHtml(token.text);
    },
  },
  walkTokens(token: Token) {
    if ((token.type === "link" || token.type === "image") && UNSAFE_URL.test((token as Tokens.Link).href)) {
      (token as Tokens.Link).href = "#";
    }
  },
});

/**
 * Converts Markdown to HTML with marked (GitHub-flavoured). Templates have it as the `markdown`
 * local (`!= markdown(post.body)`), safe for user text by default.
 */
export function markdown(text: unknown, options: MarkdownOptions = {}): string {
  const source = text === undefined || text === null ? "" : String(text);
  return (options.trusted ? trusted : safe).parse(source, { async: false }) as string;
}

/** The Pug `:markdown` filter: the template's own text, so trusted. */
export function markdownFilter(text: string): string {
  return markdown(text, { trusted: true });
}
