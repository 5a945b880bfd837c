import { FwA, response } from "fw-a";

@response.json
export class Status extends FwA {
  index() {
    return { ok: true, self: this.urlFor("Status.index") };
  }
}
