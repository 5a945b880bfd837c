/** A blog post. */
export interface Post {
  readonly slug: string;
  readonly title: string;
  readonly body: string;
  readonly published: string;
}

/** The posts of the demo blog (the data battery replaces this with a table). */
export const posts: readonly Post[] = [
  { slug: "hello-fw-a", title: "Hello, fw-a", published: "2026-11-01", body: "Views are **classes**; templates are found by convention.\n\n- one class, one URL prefix\n- one method, one page" },
  { slug: "markdown", title: "Writing in Markdown", published: "2026-11-10", body: "Post bodies are Markdown, rendered with the `markdown` filter.\n\n```ts\nexport class Blog extends FwA {}\n```" },
];

/** Finds a post by its slug. */
export function findPost(slug: string): Post | undefined {
  return posts.find((post) => post.slug === slug);
}
