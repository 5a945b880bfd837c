import type { Disk } from "flydrive";
import { importDriver } from "../../drivers.js";
import { keyToPath, LazyDisk, type StorageDriver, type Visibility } from "../driver.js";
import { UrlSigner } from "../signing.js";

/** What the local driver needs. */
export interface LocalDriverOptions {
  /** Absolute folder the files live in. */
  readonly directory: string;
  readonly visibility: Visibility;
  /** Where {@link serveStorage} answers, e.g. `/uploads` or `https://files.example.com/uploads`. */
  readonly publicPath: string;
  /** Signs private links (the app's secret key). */
  readonly secret: string;
}

/**
 * Files on local disk (flydrive's fs driver, imported at the first file operation); URLs point at
 * the app's own {@link serveStorage} route.
 */
export class LocalDriver implements StorageDriver {
  readonly kind = "local";
  readonly prefix = "";
  readonly visibility: Visibility;
  readonly directory: string;
  readonly publicPath: string;
  /** Checks the links {@link LocalDriver.signedUrl} gives. */
  readonly signer: UrlSigner;
  readonly #disk: LazyDisk;

  constructor(options: LocalDriverOptions) {
    this.directory = options.directory;
    this.visibility = options.visibility;
    this.publicPath = options.publicPath.replace(/\/+$/, "");
    this.signer = new UrlSigner(options.secret);
    this.#disk = new LazyDisk(async () => {
      const user = "local file storage";
      const [{ Disk }, { FSDriver }] = await Promise.all([
        importDriver("flydrive", user, () => import("flydrive")),
        importDriver("flydrive", user, () => import("flydrive/drivers/fs")),
      ]);
      return new Disk(new FSDriver({ location: options.directory, visibility: options.visibility }));
    });
  }

  get disk(): Disk {
    return this.#disk.current;
  }

  openDisk(): Promise<Disk> {
    return this.#disk.open();
  }

  async url(key: string): Promise<string> {
    return `${this.publicPath}/${keyToPath(key)}`;
  }

  async signedUrl(key: string, seconds: number): Promise<string> {
    const { expires, signature } = this.signer.sign(key, seconds);
    return `${this.publicPath}/${keyToPath(key)}?expires=${expires}&signature=${signature}`;
  }

  close(): void {}
}
