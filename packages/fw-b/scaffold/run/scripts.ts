import { defineCommands } from "fw-b";
import { Product } from "../lib/models.js";

/** The app's own commands: `fw-b products:count`. Each handler receives the built app (database connected). */
export const commands = defineCommands([
  {
    command: "products:count",
    describe: "print how many products there are",
    async handler(_argv, app) {
      const count = await Product.count();
      console.log(`${count} product${count === 1 ? "" : "s"} (${app.config.env})`);
    },
  },
]);
