import { FrameworkError } from "routing-kernel";

/** Options of an {@link HTTPError}. */
export interface HTTPErrorOptions {
  /** Headers sent with the error response (`Retry-After`, `WWW-Authenticate`, `Allow`...). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The error that caused this one (logged, never shown to clients). */
  readonly cause?: unknown;
  /**
   * A stable code of your own (default `E_HTTP_<status>`). An error page in another language shows
   * the app catalog's `errors.message.<code>` instead of the message, when the catalog has one.
   */
  readonly code?: string;
}

/** The standard 4xx and 5xx statuses, by member name. */
export const HTTP_STATUSES = {
  BadRequest: [400, "Bad Request"],
  Unauthorized: [401, "Unauthorized"],
  PaymentRequired: [402, "Payment Required"],
  Forbidden: [403, "Forbidden"],
  NotFound: [404, "Not Found"],
  MethodNotAllowed: [405, "Method Not Allowed"],
  NotAcceptable: [406, "Not Acceptable"],
  ProxyAuthenticationRequired: [407, "Proxy Authentication Required"],
  RequestTimeout: [408, "Request Timeout"],
  Conflict: [409, "Conflict"],
  Gone: [410, "Gone"],
  LengthRequired: [411, "Length Required"],
  PreconditionFailed: [412, "Precondition Failed"],
  PayloadTooLarge: [413, "Payload Too Large"],
  URITooLong: [414, "URI Too Long"],
  UnsupportedMediaType: [415, "Unsupported Media Type"],
  RangeNotSatisfiable: [416, "Range Not Satisfiable"],
  ExpectationFailed: [417, "Expectation Failed"],
  ImATeapot: [418, "I'm a Teapot"],
  MisdirectedRequest: [421, "Misdirected Request"],
  UnprocessableEntity: [422, "Unprocessable Entity"],
  Locked: [423, "Locked"],
  FailedDependency: [424, "Failed Dependency"],
  TooEarly: [425, "Too Early"],
  UpgradeRequired: [426, "Upgrade Required"],
  PreconditionRequired: [428, "Precondition Required"],
  TooManyRequests: [429, "Too Many Requests"],
  RequestHeaderFieldsTooLarge: [431, "Request Header Fields Too Large"],
  UnavailableForLegalReasons: [451, "Unavailable For Legal Reasons"],
  InternalServerError: [500, "Internal Server Error"],
  NotImplemented: [501, "Not Implemented"],
  BadGateway: [502, "Bad Gateway"],
  ServiceUnavailable: [503, "Service Unavailable"],
  GatewayTimeout: [504, "Gateway Timeout"],
  HTTPVersionNotSupported: [505, "HTTP Version Not Supported"],
  VariantAlsoNegotiates: [506, "Variant Also Negotiates"],
  InsufficientStorage: [507, "Insufficient Storage"],
  LoopDetected: [508, "Loop Detected"],
  NotExtended: [510, "Not Extended"],
  NetworkAuthenticationRequired: [511, "Network Authentication Required"],
} as const satisfies Record<string, readonly [number, string]>;

/** The reason phrase of a status (`404` -> `Not Found`). */
export function statusText(status: number): string {
  for (const [code, text] of Object.values(HTTP_STATUSES)) if (code === status) return text;
  return status >= 500 ? "Server Error" : "Client Error";
}

/** Builds an HTTPError of one status; callable with or without `new`, as the seeds write it. */
export interface HTTPErrorFactory {
  (message?: string, options?: HTTPErrorOptions): HTTPErrorInstance;
  new (message?: string, options?: HTTPErrorOptions): HTTPErrorInstance;
  /** The status this factory gives. */
  readonly status: number;
}

/** An error a view throws to answer with an HTTP status: `throw HTTPError.Unauthorized()`. */
export class HTTPErrorInstance extends FrameworkError {
  /** Headers to send with the error response. */
  readonly headers: Readonly<Record<string, string>>;
  /** Always true: the message is meant for the client. */
  readonly expose = true;

  constructor(status: number, message?: string, options: HTTPErrorOptions = {}) {
    super(
      options.code ?? `E_HTTP_${status}`,
      message ?? statusText(status),
      status,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = "HTTPError";
    this.headers = options.headers ?? {};
  }
}

type Factories = { readonly [K in keyof typeof HTTP_STATUSES]: HTTPErrorFactory };

function factory(status: number): HTTPErrorFactory {
  // A function, not an arrow: apps write both `HTTPError.NotFound()` and `new HTTPError.NotFound()`.
  // biome-ignore lint/complexity/useArrowFunction: an arrow function cannot be called with `new`.
  const make = function (message?: string, options?: HTTPErrorOptions) {
    return new HTTPErrorInstance(status, message, options);
  };
  return Object.assign(make, { status }) as unknown as HTTPErrorFactory;
}

/**
 * `HTTPError.NotFound("No such post")`, `new HTTPError.Unauthorized()`, or `new HTTPError(418)`.
 * Every standard 4xx and 5xx status has a member.
 */
export const HTTPError: typeof HTTPErrorInstance & Factories = Object.assign(
  HTTPErrorInstance,
  Object.fromEntries(Object.entries(HTTP_STATUSES).map(([name, [status]]) => [name, factory(status)])) as Factories,
);

/** The status and client-safe message of any thrown value; 500 when it is not an HTTP error. */
export function toHttpStatus(error: unknown): { status: number; message: string; exposed: boolean } {
  if (error && typeof error === "object") {
    const candidate = error as { status?: unknown; statusCode?: unknown; expose?: unknown; message?: unknown };
    const status = typeof candidate.status === "number" ? candidate.status : candidate.statusCode;
    if (typeof status === "number" && status >= 400 && status <= 599) {
      // A 4xx is shown to the client unless it says otherwise (`expose: false`: a message naming
      // internals, such as a table, that only development shows).
      const exposed =
        candidate.expose === true ||
        (candidate.expose !== false && ((error instanceof FrameworkError && status < 500) || status < 500));
      const message =
        exposed && typeof candidate.message === "string" && candidate.message ? candidate.message : statusText(status);
      return { status, message, exposed };
    }
  }
  return { status: 500, message: statusText(500), exposed: false };
}
