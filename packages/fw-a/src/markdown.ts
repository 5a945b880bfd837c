import { Marked } from "marked";

const marked = new Marked({ gfm: true, async: false });

/** Renders Markdown to HTML (GitHub-flavoured, synchronous). */
export function renderMarkdown(source: string): string {
  return marked.parse(source, { async: false }) as string;
}
