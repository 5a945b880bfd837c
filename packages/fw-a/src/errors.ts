/**
 * fw-a raises no error of its own. Its apps meet koa-host's codes (the request errors, config and
 * templates: `@fwkit/koa-host`), the batteries' and the command line's; every code is listed in
 * docs/errors.md, and an app branches on `error.code`.
 */
export {};
