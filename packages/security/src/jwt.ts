/**
 * JSON Web Tokens with jose: HS256 by default (a key derived from the secret key, or `jwtSecret`),
 * RS256 or EdDSA with PEM keys from the config. Verification accepts only the configured
 * algorithm, so `alg: none` and algorithm-confusion tokens are refused.
 */
import { createPrivateKey, createPublicKey, createSecretKey, type KeyObject } from "node:crypto";
import type { JWTPayload } from "jose";
import type { JwtAlgorithm, SecurityConfig } from "./config.js";
import { importDriver } from "./drivers.js";
import {
  E_BEARER_TOKEN_EXPIRED,
  E_BEARER_TOKEN_INVALID,
  E_JWT_KEY_MISSING,
  E_SECURITY_CONFIG_INVALID,
} from "./errors.js";
import { deriveKey } from "./signing.js";

let loadedJose: Promise<typeof import("jose")> | undefined;

/**
 * jose, imported at the first token signed or verified (keys are node:crypto objects, made
 * without it); the promise is kept so requests after the first do not go through the loader.
 */
function jose(): Promise<typeof import("jose")> {
  loadedJose ??= importDriver<typeof import("jose")>("jose", "JWT support").catch((error: unknown) => {
    loadedJose = undefined;
    throw error;
  });
  return loadedJose;
}

/** Resolved keys and claims policy for signing and verifying. */
export interface JwtKeys {
  readonly algorithm: JwtAlgorithm;
  /** Signing key; absent when the app only verifies (RS256/EdDSA with a public key only). */
  readonly signingKey: KeyObject | undefined;
  readonly verifyingKey: KeyObject;
  readonly issuer: string | undefined;
  readonly audience: string | undefined;
  readonly expiresIn: number | string;
}

/** Options of one `signJwt` call. */
export interface SignJwtOptions {
  /** Lifetime: seconds or a span such as `"15m"` (default: `jwtExpiresIn`). */
  readonly expiresIn?: number | string;
  /** `sub` claim. */
  readonly subject?: string;
}

/** Builds {@link JwtKeys} from the security config (once, at start-up). */
export async function resolveJwtKeys(
  config: Pick<
    SecurityConfig,
    | "secretKey"
    | "jwtAlgorithm"
    | "jwtSecret"
    | "jwtPrivateKey"
    | "jwtPublicKey"
    | "jwtIssuer"
    | "jwtAudience"
    | "jwtExpiresIn"
  >,
): Promise<JwtKeys> {
  const policy = { issuer: config.jwtIssuer, audience: config.jwtAudience, expiresIn: config.jwtExpiresIn };
  if (config.jwtAlgorithm === "HS256") {
    const secret = config.jwtSecret ? Buffer.from(config.jwtSecret, "utf8") : deriveKey(config.secretKey, "jwt-hs256");
    const key = createSecretKey(secret);
    return { algorithm: "HS256", signingKey: key, verifyingKey: key, ...policy };
  }
  const algorithm = config.jwtAlgorithm;
  const signingKey = config.jwtPrivateKey
    ? pemKey(() => createPrivateKey(config.jwtPrivateKey!), "jwtPrivateKey")
    : undefined;
  const source = config.jwtPublicKey ?? signingKey;
  if (!source) throw new E_JWT_KEY_MISSING(algorithm, "jwtPublicKey");
  const verifyingKey = pemKey(() => createPublicKey(source), "jwtPublicKey");
  const expected = algorithm === "RS256" ? ["rsa"] : ["ed25519", "ed448"];
  for (const [key, name] of [
    [signingKey, "jwtPrivateKey"],
    [verifyingKey, "jwtPublicKey"],
  ] as const) {
    if (key && !expected.includes(key.asymmetricKeyType ?? "")) {
      throw new E_SECURITY_CONFIG_INVALID(
        name,
        `${algorithm} needs a ${expected.join(" or ")} key, got ${key.asymmetricKeyType ?? "another kind"}`,
      );
    }
  }
  return { algorithm, signingKey, verifyingKey, ...policy };
}

function pemKey(read: () => KeyObject, name: string): KeyObject {
  try {
    return read();
  } catch (error) {
    throw new E_SECURITY_CONFIG_INVALID(name, `it is not a readable PEM key (${(error as Error).message})`);
  }
}

/** Signs `claims` (adding `iat`, `exp`, and `iss`/`aud` when configured). */
export async function signJwt(claims: JWTPayload, keys: JwtKeys, options: SignJwtOptions = {}): Promise<string> {
  if (!keys.signingKey) throw new E_JWT_KEY_MISSING(keys.algorithm, "jwtPrivateKey");
  const expiresIn = options.expiresIn ?? keys.expiresIn;
  const { SignJWT } = await jose();
  let jwt = new SignJWT(claims)
    .setProtectedHeader({ alg: keys.algorithm, typ: "JWT" })
    .setIssuedAt()
    .setExpirationTime(typeof expiresIn === "number" ? Math.floor(Date.now() / 1000) + expiresIn : expiresIn);
  if (keys.issuer) jwt = jwt.setIssuer(keys.issuer);
  if (keys.audience) jwt = jwt.setAudience(keys.audience);
  if (options.subject) jwt = jwt.setSubject(options.subject);
  return jwt.sign(keys.signingKey);
}

/**
 * Verifies a token and returns its claims. Every failure is a 401 error: `E_BEARER_TOKEN_EXPIRED`
 * for an expired token, `E_BEARER_TOKEN_INVALID` (with the reason) for anything else.
 */
export async function verifyJwt(token: string, keys: JwtKeys): Promise<JWTPayload> {
  if (
    typeof token !== "string" ||
    token.length > 8192 ||
    !/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/.test(token)
  ) {
    throw new E_BEARER_TOKEN_INVALID("it is not a JWT of three base64url parts");
  }
  const { errors, jwtVerify } = await jose();
  try {
    const { payload } = await jwtVerify(token, keys.verifyingKey, {
      algorithms: [keys.algorithm],
      ...(keys.issuer ? { issuer: keys.issuer } : {}),
      ...(keys.audience ? { audience: keys.audience } : {}),
      requiredClaims: ["exp"],
    });
    return payload;
  } catch (error) {
    throw jwtError(errors, error);
  }
}

function jwtError(errors: typeof import("jose").errors, error: unknown): Error {
  if (error instanceof errors.JWTExpired) return new E_BEARER_TOKEN_EXPIRED();
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return new E_BEARER_TOKEN_INVALID("its signature does not match");
  if (error instanceof errors.JOSEAlgNotAllowed) return new E_BEARER_TOKEN_INVALID("its algorithm is not accepted");
  if (error instanceof errors.JWTClaimValidationFailed)
    return new E_BEARER_TOKEN_INVALID(
      `claim "${error.claim}" ${error.reason === "missing" ? "is missing" : "is not accepted"}`,
    );
  if (error instanceof errors.JOSEError) return new E_BEARER_TOKEN_INVALID("it is malformed");
  return new E_BEARER_TOKEN_INVALID("it could not be read");
}
