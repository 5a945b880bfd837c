import type { Middleware } from "koa";
import { E_STATIC_PATH_INVALID, E_STORAGE_NOT_FOUND } from "../errors.js";
import { LocalDriver } from "./drivers/local.js";
import { checkKey, typeOfKey } from "./keys.js";
import type { Storage } from "./storage.js";

/**
 * Serves files of local-disk storage at its `publicPath` (`/uploads/<key>`): public files to
 * anyone, private files only through a valid signed link (403 otherwise). Unsafe or undecodable
 * paths get 400, unknown files 404. Served files cannot run scripts in the app's origin
 * (`nosniff` and a sandboxing CSP), whatever their type. Object storage serves its own files, so
 * for `s3://` this middleware only passes requests on.
 */
export function serveStorage(storage: Storage): Middleware {
  const driver = storage.driver;
  if (!(driver instanceof LocalDriver) || /^[a-z]+:\/\//i.test(driver.publicPath)) {
    return (_ctx, next) => next();
  }
  const base = `${driver.publicPath}/`;
  return async (ctx, next) => {
    if ((ctx.method !== "GET" && ctx.method !== "HEAD") || !ctx.path.startsWith(base)) return next();
    let key: string;
    try {
      key = decodeURIComponent(ctx.path.slice(base.length));
    } catch {
      throw new E_STATIC_PATH_INVALID("it is not valid percent-encoding");
    }
    checkKey(key);
    if (driver.visibility === "private") {
      const expires = ctx.query["expires"];
      const signature = ctx.query["signature"];
      driver.signer.verify(
        key,
        typeof expires === "string" ? expires : undefined,
        typeof signature === "string" ? signature : undefined,
      );
    }
    if (!(await storage.exists(key))) throw new E_STORAGE_NOT_FOUND(key);
    ctx.type = typeOfKey(key);
    ctx.set("X-Content-Type-Options", "nosniff");
    ctx.set(
      "Content-Security-Policy",
      "sandbox; default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'",
    );
    ctx.set("Cache-Control", driver.visibility === "private" ? "private, max-age=300" : "public, max-age=3600");
    ctx.body = await storage.get(key);
  };
}
