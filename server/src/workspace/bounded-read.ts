// Reading files a project supplies (sources, manifests and what they include) without trusting them: only regular
// files are read (a FIFO, a device such as /dev/zero, a socket or a folder is refused without blocking on it, also
// behind a symlink), and never more than a cap, so a hostile project cannot hang a read or grow one without end.
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';

const MiB = 1024 * 1024;
/** The most a Python source file may hold to be checked. */
export const MAX_SOURCE_BYTES = 16 * MiB;
/** The most a manifest (or a file one includes) may hold to be read. */
export const MAX_MANIFEST_BYTES = 16 * MiB;

export type BoundedRead = { text: string; skipped?: undefined; error?: undefined; code?: undefined } | { text?: undefined; skipped: string; error?: undefined; code?: undefined } | { text?: undefined; skipped?: undefined; error: string; code?: string };

/** What kind of file a stat describes, in words, for one that is not a regular file. */
export function fileKind(stat: Stats): string {
  if (stat.isDirectory()) return 'a folder';
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  return 'not a regular file';
}

function sizeInWords(bytes: number): string {
  return bytes >= MiB ? `${Math.round(bytes / MiB)} MiB` : `${bytes} bytes`;
}

/**
 * The text of `file` (UTF-8), or why it was skipped (not a regular file, or over `maxBytes`), or the error that kept
 * it from being read (it does not exist, no permission). Opening never blocks (O_NONBLOCK), and a file whose size
 * the system does not report (those of /proc) is read only up to the cap.
 */
export function readBoundedText(file: string, maxBytes: number): BoundedRead {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOCTTY ?? 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { error: code === 'ENXIO' ? 'a socket or FIFO with nothing behind it' : (e as Error).message, ...(code ? { code } : {}) };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { skipped: `${fileKind(stat)}, not a regular file` };
    if (stat.size > maxBytes) return { skipped: `larger than ${sizeInWords(maxBytes)} (${sizeInWords(stat.size)})` };
    const chunks: Buffer[] = [];
    let total = 0;
    const chunk = Buffer.allocUnsafe(Math.min(maxBytes + 1, Math.max(stat.size + 1, 64 * 1024)));
    for (;;) {
      const n = readSync(fd, chunk, 0, Math.min(chunk.length, maxBytes + 1 - total), null);
      if (n === 0) break;
      chunks.push(Buffer.from(chunk.subarray(0, n)));
      total += n;
      if (total > maxBytes) return { skipped: `larger than ${sizeInWords(maxBytes)}` };
    }
    return { text: Buffer.concat(chunks, total).toString('utf8') };
  } catch (e) {
    return { error: (e as Error).message };
  } finally {
    closeSync(fd);
  }
}

/** The text of a Python source file, or an Error saying why not (as readFileSync throws): for callers that catch. */
export function readSourceText(file: string, maxBytes = MAX_SOURCE_BYTES): string {
  const read = readBoundedText(file, maxBytes);
  if (read.text === undefined) throw new Error(read.skipped ?? read.error);
  return read.text;
}
