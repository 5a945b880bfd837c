import { defineModel, type BaseRow } from "fw-a";

/** A blog post (table `posts`). */
export interface Post extends BaseRow {
  slug: string;
  title: string;
  body: string;
  published_at: Date;
}

/** The blog's posts; loaded and bound to the database at start. */
export const Post = defineModel<Post>("posts");
