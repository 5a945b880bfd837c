import { gzipSync } from "node:zlib";

/** One file of a package tarball: its path inside the package, its bytes and its mode (0o644, 0o755). */
export interface TarballEntry {
  readonly path: string;
  readonly content: Buffer;
  readonly mode: number;
}

// npm's own fixed time for every entry, so the same files always give the same tarball (and integrity).
const MTIME = Math.floor(Date.UTC(1985, 9, 26, 8, 15, 0) / 1000);

function field(header: Buffer, offset: number, length: number, value: string): void {
  header.write(value, offset, Math.min(length, Buffer.byteLength(value)), "utf8");
}

const octal = (value: number, length: number) => `${value.toString(8).padStart(length - 1, "0")}\0`;

/** Splits a path into ustar's `prefix` (155 bytes) and `name` (100 bytes), at a slash. */
function splitPath(path: string): { prefix: string; name: string } | undefined {
  if (Buffer.byteLength(path) <= 100) return { prefix: "", name: path };
  for (let at = path.indexOf("/"); at !== -1; at = path.indexOf("/", at + 1)) {
    const prefix = path.slice(0, at);
    const name = path.slice(at + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100) return { prefix, name };
  }
  return undefined;
}

function header(path: string, size: number, mode: number): Buffer {
  const split = splitPath(path);
  if (!split) throw new RangeError(`the path ${path} is too long for a package tarball`);
  const block = Buffer.alloc(512);
  field(block, 0, 100, split.name);
  field(block, 100, 8, octal(mode & 0o7777, 8));
  field(block, 108, 8, octal(0, 8));
  field(block, 116, 8, octal(0, 8));
  field(block, 124, 12, octal(size, 12));
  field(block, 136, 12, octal(MTIME, 12));
  field(block, 148, 8, "        ");
  field(block, 156, 1, "0");
  field(block, 257, 6, "ustar\0");
  field(block, 263, 2, "00");
  field(block, 345, 155, split.prefix);
  let sum = 0;
  for (const byte of block) sum += byte;
  field(block, 148, 8, `${sum.toString(8).padStart(6, "0")}\0 `);
  return block;
}

/**
 * A package tarball as `npm pack` writes it: a gzipped ustar archive with every file under
 * `package/`, a fixed time, and no owner. The same entries always give the same bytes.
 */
export function packageTarball(entries: readonly TarballEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    blocks.push(header(`package/${entry.path}`, entry.content.length, entry.mode));
    blocks.push(entry.content);
    const rest = entry.content.length % 512;
    if (rest !== 0) blocks.push(Buffer.alloc(512 - rest));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks), { level: 9 });
}
