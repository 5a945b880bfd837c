/** The resolved configuration of an app: the host's own keys plus every battery's keys. */
export interface AppConfig {
  /** `development` (default), `test` or `production`, from `APP_ENV`. */
  readonly env: string;
  /** Signs cookies and tokens; required in production. */
  readonly secretKey: string;
  /** The app's root folder (absolute). */
  readonly root: string;
  /** Any other key a battery reads (`sessionUrl`, `dbUrl`...). */
  readonly [key: string]: unknown;
}
