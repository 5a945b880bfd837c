import type { StandardSchemaV1 } from "@standard-schema/spec";
import { FwA, request, response, security } from "fw-a";
import * as v from "valibot";
import { z } from "zod";

export const NewPost = z.object({ title: z.string().min(3), tags: z.array(z.string()).default([]) });
export const PostOut = z.object({ id: z.number().int(), title: z.string(), tags: z.array(z.string()) });
export const Listing = z.object({ page: z.coerce.number().int().min(1).default(1) });
export const Rename = v.object({ title: v.pipe(v.string(), v.minLength(3)) });
export const Avatar = z.object({ avatar: z.any() });
/** A Standard Schema with no JSON Schema converter: documented without it, with a warning. */
export const Opaque: StandardSchemaV1<unknown, { note?: string }> = {
  "~standard": { version: 1, vendor: "opaque", validate: (value: unknown) => ({ value: value as { note?: string } }) },
};

@response.json
@security.csrfExempt
@request.tags("Posts")
export class Posts extends FwA {
  @request.query(Listing)
  @request.summary("List posts")
  @response.schema(200, z.object({ page: z.number(), items: z.array(PostOut) }))
  index() {
    const { page } = this.input(Listing);
    return { page, items: [{ id: 1, title: "First", tags: [] }] };
  }

  @request.post
  @request.body(NewPost)
  @request.summary("Create a post")
  @request.description("Creates a post from its title and tags.")
  @response.schema(200, PostOut)
  create() {
    const post = this.input(NewPost);
    return { id: 7, title: post.title, tags: post.tags };
  }

  @response.schema(200, PostOut)
  show(id: string, format = "full") {
    return { id: Number(id), title: `post ${format}`, tags: [] };
  }

  @request.body(Rename)
  @response.schema(200, PostOut)
  update(id: string) {
    return { id: Number(id), title: this.input(Rename).title, tags: [] };
  }

  @request.post
  @request.files(Avatar)
  avatar() {
    return { ok: true };
  }

  @request.post
  @request.body(Opaque)
  note() {
    return { note: this.input(Opaque).note ?? "" };
  }
}

@response.json
export class Account extends FwA {
  @security.loginRequired
  me() {
    return { name: (this.currentUser as { name?: string } | undefined)?.name };
  }

  @security.bearerAuth
  token() {
    return { sub: this.claims?.["sub"] };
  }

  @request.post
  @security.loginRequired
  settings() {
    return { saved: true };
  }
}

export class Pages extends FwA {
  index() {
    return "<h1>Home</h1>";
  }
}
