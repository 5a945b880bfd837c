import { FwA } from "fw-a";
import { Post } from "../lib/models.js";

/** The home page: the latest posts. */
export class Index extends FwA {
  async index() {
    return { title: "blog-a", posts: await Post.query().orderBy("published_at", "desc").limit(5) };
  }
  about() {
    return {};
  }
}
