import { FwB } from "../../../../src/index.js";

/** A view in a sub-folder: its templates live under templates/admin/users/. */
export class Users extends FwB {
  index() {
    return { count: 2 };
  }
}
