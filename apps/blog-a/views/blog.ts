import { FwA, HTTPError, pageParams, paginate, response } from "fw-a";
import { Post } from "../lib/models.js";

/** Post pages: GET /blog/ lists (paginated), GET /blog/<slug>/ shows one (Markdown body). */
export class Blog extends FwA {
  async index() {
    const { page, perPage } = pageParams(this.ctx.query, { defaultPerPage: 10, maxPerPage: 50 });
    return {
      page: await paginate(Post.query().orderBy("published_at", "desc"), { page, perPage, query: this.ctx.query }),
    };
  }
  async get(slug: string) {
    const post = await Post.findBy({ slug });
    if (!post) throw HTTPError.NotFound(`There is no post "${slug}".`);
    return { post };
  }
}

/** The JSON API: GET /api/posts/ and GET /api/posts/<slug>/ (read-only). */
@response.json
export class Api extends FwA {
  async posts(slug = "") {
    if (!slug) {
      const rows = await Post.query().orderBy("published_at", "asc").select("slug", "title", "published_at");
      return rows.map((row) => ({ slug: row.slug, title: row.title, published: row.published_at }));
    }
    const post = await Post.findBy({ slug });
    if (!post) throw HTTPError.NotFound(`There is no post "${slug}".`);
    return post;
  }
}
