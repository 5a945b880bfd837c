import { FwA, HTTPError, request, response } from "fw-a";

export class Index extends FwA {
  index() {
    return { title: "Home", items: ["a", "b"] };
  }
  about_us() {
    return { who: "<b>us</b>" };
  }
  aboutTeam() {
    return undefined;
  }
  plain() {
    return "just text";
  }
  html() {
    return "<p>markup</p>";
  }
  list() {
    return [1, 2, 3];
  }
  secret() {
    throw HTTPError.Unauthorized();
  }
  gone() {
    throw new HTTPError.Gone("This page left.");
  }
  crash() {
    throw new Error("internal detail");
  }
  notemplate() {
    return { x: 1 };
  }
  created() {
    return response.make("created 7", { status: 201, headers: { Location: "/items/7/" } });
  }
  moved() {
    return response.redirect("/about-us/");
  }
  docs() {
    return {};
  }
  links() {
    return "";
  }
  @request.post submit() {
    return "submitted";
  }
}

@response.json
export class Api extends FwA {
  index() {
    return { ok: true };
  }
  item(id: string) {
    return { id };
  }
  fail() {
    throw HTTPError.Forbidden("Not yours");
  }
}
