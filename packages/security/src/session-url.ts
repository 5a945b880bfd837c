/**
 * Reads `sessionUrl` (SESSION_URL): one URL chooses where sessions live. Parsed once at start-up
 * so a typo is a start-up error, not a failure on the first request.
 */
import { isAbsolute, resolve } from "node:path";
import { readAzureBlobUrl, readGcsUrl, type AzureBlobLocation } from "@fwkit/battery-kit";
import { E_SESSION_URL_INVALID } from "./errors.js";

/** Where sessions live, as read from the session URL. */
export type SessionUrl =
  | { readonly kind: "cookie" }
  | { readonly kind: "memory" }
  | { readonly kind: "redis"; readonly url: string; readonly prefix: string }
  | { readonly kind: "postgres" | "mysql"; readonly connection: string; readonly table: string }
  | { readonly kind: "sqlite"; readonly filename: string; readonly table: string }
  | {
      readonly kind: "s3";
      readonly bucket: string;
      readonly prefix: string;
      readonly region: string;
      readonly endpoint: string | undefined;
      readonly forcePathStyle: boolean;
      readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string } | undefined;
    }
  | {
      /** Google Cloud Storage through its S3-compatible XML API: the S3 store with Google's endpoint and an HMAC key. */
      readonly kind: "gcs";
      readonly bucket: string;
      readonly prefix: string;
      readonly region: string;
      readonly endpoint: string;
      readonly forcePathStyle: true;
      readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string };
    }
  | { readonly kind: "azblob"; readonly location: AzureBlobLocation };

const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** Parses a session URL; relative SQLite paths are resolved against `root`. */
export function parseSessionUrl(input: string, root: string = process.cwd()): SessionUrl {
  const text = input.trim();
  if (text === "" || text === "cookie" || text === "cookie:") return { kind: "cookie" };
  if (text === "memory" || text === "memory:") return { kind: "memory" };
  if (text.startsWith("sqlite:")) return parseSqlite(input, text.slice("sqlite:".length), root);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new E_SESSION_URL_INVALID(redactUrl(input), "it is not a URL");
  }
  const params = url.searchParams;
  switch (url.protocol) {
    case "redis:":
    case "rediss:": {
      const prefix = params.get("prefix") ?? "sess:";
      params.delete("prefix");
      return { kind: "redis", url: url.toString(), prefix };
    }
    case "postgres:":
    case "postgresql:":
    case "mysql:":
    case "mariadb:": {
      const table = tableName(input, params.get("table"));
      params.delete("table");
      if (url.protocol === "mariadb:") url = new URL(`mysql:${url.toString().slice("mariadb:".length)}`);
      const kind = url.protocol === "mysql:" ? "mysql" : "postgres";
      return { kind, connection: url.toString(), table };
    }
    case "s3:":
      return parseS3(input, url);
    case "gs:": {
      onlyKnown(input, params, ["endpoint", "region"]);
      const location = readGcsUrl(url, (reason) => {
        throw new E_SESSION_URL_INVALID(redactUrl(input), reason);
      });
      return { kind: "gcs", ...location, forcePathStyle: true };
    }
    case "azblob:": {
      onlyKnown(input, params, ["endpoint"]);
      const location = readAzureBlobUrl(url, (reason) => {
        throw new E_SESSION_URL_INVALID(redactUrl(input), reason);
      });
      return { kind: "azblob", location };
    }
    default:
      throw new E_SESSION_URL_INVALID(
        redactUrl(input),
        `the scheme "${url.protocol}" is not a supported session store`,
      );
  }
}

function onlyKnown(input: string, params: URLSearchParams, known: readonly string[]): void {
  for (const key of params.keys()) {
    if (!known.includes(key))
      throw new E_SESSION_URL_INVALID(
        redactUrl(input),
        `the query "${key}" is not understood (known: ${known.join(", ")})`,
      );
  }
}

function tableName(input: string, value: string | null): string {
  const table = value ?? "sessions";
  if (!TABLE_NAME.test(table))
    throw new E_SESSION_URL_INVALID(redactUrl(input), `the table name "${table}" is not a plain SQL identifier`);
  return table;
}

function parseSqlite(input: string, rest: string, root: string): SessionUrl {
  const query = rest.indexOf("?");
  const path = query === -1 ? rest : rest.slice(0, query);
  const params = new URLSearchParams(query === -1 ? "" : rest.slice(query + 1));
  const table = tableName(input, params.get("table"));
  // `sqlite:///abs/file.db` and `sqlite://rel.db` are accepted as well as `sqlite:rel.db`.
  const file = path.startsWith("//") ? path.slice(2) : path;
  if (file === "")
    throw new E_SESSION_URL_INVALID(input, "give a file, as in sqlite:data/sessions.db (or sqlite::memory:)");
  const filename = file === ":memory:" || isAbsolute(file) ? file : resolve(root, file);
  return { kind: "sqlite", filename, table };
}

function parseS3(input: string, url: URL): SessionUrl {
  const bucket = url.hostname;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw new E_SESSION_URL_INVALID(redactUrl(input), `"${bucket}" is not an S3 bucket name`);
  }
  const prefix = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, "");
  const endpoint = url.searchParams.get("endpoint") ?? undefined;
  if (endpoint !== undefined && !/^https?:\/\//.test(endpoint)) {
    throw new E_SESSION_URL_INVALID(redactUrl(input), "endpoint must be an http:// or https:// URL");
  }
  const region = url.searchParams.get("region") ?? process.env["AWS_REGION"] ?? "us-east-1";
  const style = url.searchParams.get("forcePathStyle");
  const forcePathStyle = style === null ? endpoint !== undefined : style === "true" || style === "1";
  const credentials = url.username
    ? { accessKeyId: decodeURIComponent(url.username), secretAccessKey: decodeURIComponent(url.password) }
    : undefined;
  return { kind: "s3", bucket, prefix, region, endpoint, forcePathStyle, credentials };
}

/** The URL with its password replaced by `***`, for messages and logs. */
export function redactUrl(input: string): string {
  return input.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@/]*@/i, "$1***@");
}
