import type { Context } from "koa";

/**
 * Koa's context forwards `ctx.body`, `ctx.status`, `ctx.method`, `ctx.set(...)`... to the request
 * and the response through the `delegates` package, which makes every forwarder from one function
 * (`function (val) { return this[target][name] = val }`). V8 keeps one record of what a function's
 * property accesses met for all the functions made from the same source, so that one store sees
 * every name (body, type, status...) and goes the slowest way: a store to `ctx.body` leaves the
 * compiled code for V8's runtime on every request (about 1,000 instructions each, two or more per
 * answer).
 *
 * The same forwarders written out one by one, put on each app's context prototype at start-up,
 * do exactly what Koa's do (the same request and response accessors and methods, `this` and the
 * arguments passed as they come) and each property access in them meets one name only.
 * `context-accessors.test.ts` checks that they cover Koa's delegated names and forward as Koa's do.
 */
const forwarders: ThisType<Context> = {
  // To the response.
  attachment(...args: Parameters<Context["response"]["attachment"]>) {
    return this.response.attachment(...args);
  },
  redirect(...args: Parameters<Context["response"]["redirect"]>) {
    return this.response.redirect(...args);
  },
  remove(...args: Parameters<Context["response"]["remove"]>) {
    return this.response.remove(...args);
  },
  vary(...args: Parameters<Context["response"]["vary"]>) {
    return this.response.vary(...args);
  },
  has(field: string) {
    return (this.response as unknown as { has(field: string): boolean }).has(field);
  },
  // `set` and `append` look at how many arguments they were given.
  set(...args: Parameters<Context["response"]["set"]>) {
    return (this.response.set as (...a: unknown[]) => unknown)(...args);
  },
  append(...args: Parameters<Context["response"]["append"]>) {
    return this.response.append(...args);
  },
  flushHeaders() {
    return this.response.flushHeaders();
  },
  back(...args: unknown[]) {
    return (this.response as unknown as { back(...a: unknown[]): unknown }).back(...args);
  },
  get status() {
    return this.response.status;
  },
  set status(value) {
    this.response.status = value;
  },
  get message() {
    return this.response.message;
  },
  set message(value) {
    this.response.message = value;
  },
  get body() {
    return this.response.body;
  },
  set body(value) {
    this.response.body = value;
  },
  get length() {
    return this.response.length;
  },
  set length(value) {
    this.response.length = value;
  },
  get type() {
    return this.response.type;
  },
  set type(value) {
    this.response.type = value;
  },
  get lastModified() {
    return this.response.lastModified;
  },
  set lastModified(value) {
    this.response.lastModified = value;
  },
  get etag() {
    return this.response.etag;
  },
  set etag(value) {
    this.response.etag = value;
  },
  get headerSent() {
    return this.response.headerSent;
  },
  get writable() {
    return this.response.writable;
  },

  // To the request.
  acceptsLanguages(...args: unknown[]) {
    return (this.request.acceptsLanguages as (...a: unknown[]) => unknown)(...args);
  },
  acceptsEncodings(...args: unknown[]) {
    return (this.request.acceptsEncodings as (...a: unknown[]) => unknown)(...args);
  },
  acceptsCharsets(...args: unknown[]) {
    return (this.request.acceptsCharsets as (...a: unknown[]) => unknown)(...args);
  },
  accepts(...args: unknown[]) {
    return (this.request.accepts as (...a: unknown[]) => unknown)(...args);
  },
  get(...args: Parameters<Context["request"]["get"]>) {
    return this.request.get(...args);
  },
  is(...args: unknown[]) {
    return (this.request.is as (...a: unknown[]) => unknown)(...args);
  },
  get querystring() {
    return this.request.querystring;
  },
  set querystring(value) {
    this.request.querystring = value;
  },
  get idempotent() {
    return this.request.idempotent;
  },
  // Koa's request has no setter for these two; Koa's forwarder assigns in sloppy mode, which does
  // nothing, and so does this one.
  set idempotent(_value) {},
  get socket() {
    return this.request.socket;
  },
  set socket(_value) {},
  get search() {
    return this.request.search;
  },
  set search(value) {
    this.request.search = value;
  },
  get method() {
    return this.request.method;
  },
  set method(value) {
    this.request.method = value;
  },
  get query() {
    return this.request.query;
  },
  set query(value) {
    this.request.query = value;
  },
  get path() {
    return this.request.path;
  },
  set path(value) {
    this.request.path = value;
  },
  get url() {
    return this.request.url;
  },
  set url(value) {
    this.request.url = value;
  },
  get accept() {
    return this.request.accept;
  },
  set accept(value) {
    this.request.accept = value;
  },
  get origin() {
    return this.request.origin;
  },
  get href() {
    return this.request.href;
  },
  get subdomains() {
    return this.request.subdomains;
  },
  get protocol() {
    return this.request.protocol;
  },
  get host() {
    return this.request.host;
  },
  get hostname() {
    return this.request.hostname;
  },
  get URL() {
    return this.request.URL;
  },
  get header() {
    return this.request.header;
  },
  get headers() {
    return this.request.headers;
  },
  get secure() {
    return this.request.secure;
  },
  get stale() {
    return this.request.stale;
  },
  get fresh() {
    return this.request.fresh;
  },
  get ips() {
    return this.request.ips;
  },
  get ip() {
    return this.request.ip;
  },
};

/** The names {@link installContextForwarders} puts on a context prototype. */
export const FORWARDED_NAMES: readonly string[] = Object.freeze(
  Object.keys(Object.getOwnPropertyDescriptors(forwarders)),
);

/**
 * Puts forwarders V8 keeps fast on an app's Koa context prototype (`koa.context`), in front of
 * Koa's shared ones (see the module's comment). Called right after Koa makes the app, so what an
 * app or a plugin puts on `app.context` later wins, as it would over Koa's.
 */
export function installContextForwarders(context: object): void {
  for (const [name, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(forwarders))) {
    // Enumerable and configurable, as Koa's (`__defineGetter__`, plain assignment) are.
    Object.defineProperty(context, name, { ...descriptor, enumerable: true, configurable: true });
  }
}
