import { FwA, HTTPError, response } from "fw-a";
import { findPost, posts } from "../lib/posts.js";

/** Post pages: GET /blog/ lists, GET /blog/<slug>/ shows one (Markdown body). */
export class Blog extends FwA {
  index() {
    return { posts };
  }
  get(slug: string) {
    const post = findPost(slug);
    if (!post) throw HTTPError.NotFound(`There is no post "${slug}".`);
    return { post };
  }
}

/** The JSON API: GET /api/posts/ and GET /api/posts/<slug>/ (no admin, read-only). */
@response.json
export class Api extends FwA {
  posts(slug = "") {
    if (!slug) return posts.map(({ slug: s, title, published }) => ({ slug: s, title, published }));
    const post = findPost(slug);
    if (!post) throw HTTPError.NotFound(`There is no post "${slug}".`);
    return post;
  }
}
