import { FwB, request } from "fw-b";
import {
  bearerAuth,
  body,
  csrfExempt,
  description,
  files,
  loginRequired,
  query,
  renderJson,
  renderXml,
  returns,
  summary,
  tags,
} from "fw-b/decorators";
import * as v from "valibot";
import { z } from "zod";

export const NewPost = z.object({ title: z.string().min(3), tags: z.array(z.string()).default([]) });
export const PostOut = z.object({ id: z.number().int(), title: z.string(), tags: z.array(z.string()) });
export const Listing = z.object({ page: z.coerce.number().int().min(1).default(1) });
export const Rename = v.object({ title: v.pipe(v.string(), v.minLength(3)) });
export const Avatar = z.object({ avatar: z.any() });

@renderJson
@csrfExempt
@tags("Posts")
export class Posts extends FwB {
  @query(Listing)
  @summary("List posts")
  @returns(200, z.object({ page: z.number(), items: z.array(PostOut) }))
  index() {
    const { page } = this.input(Listing);
    return { page, items: [{ id: 1, title: "First", tags: [] }] };
  }

  @request.post
  @body(NewPost)
  @summary("Create a post")
  @description("Creates a post from its title and tags.")
  @returns(200, PostOut)
  create() {
    const post = this.input(NewPost);
    return { id: 7, title: post.title, tags: post.tags };
  }

  @returns(200, PostOut)
  show(id: string, format = "full") {
    return { id: Number(id), title: `post ${format}`, tags: [] };
  }

  @body(Rename)
  @returns(200, PostOut)
  update(id: string) {
    return { id: Number(id), title: this.input(Rename).title, tags: [] };
  }

  @request.post
  @files(Avatar)
  avatar() {
    return { ok: true };
  }
}

@renderXml
@csrfExempt
export class Feed extends FwB {
  @request.post
  @body(NewPost)
  add() {
    return { title: this.input(NewPost).title };
  }
}

@renderJson
export class Account extends FwB {
  @loginRequired
  me() {
    return { name: (this.currentUser as { name?: string } | undefined)?.name };
  }

  @bearerAuth
  token() {
    return { sub: this.claims?.["sub"] };
  }

  @request.post
  @loginRequired
  settings() {
    return { saved: true };
  }
}

export class Pages extends FwB {
  index() {
    return "<h1>Home</h1>";
  }
}
