// file: URIs <-> paths, as on the platform the server runs on — written out for Windows, because editors send its
// URIs in several spellings: VS Code `file:///c%3A/Users/Jane%20Doe/a.py` (drive letter lower case, colon
// escaped), others `file:///C:/Users/...` or even `file:///C:\Users\...` (backslashes), UNC shares as
// `file://server/share/...`. Node's fileURLToPath/pathToFileURL handle only the platform they run on and produce
// yet another spelling, so a document the editor has open would not be found by its path. The platform is a
// parameter so that the Windows rules are tested everywhere.
import { posix, win32 } from 'node:path';

export type PathPlatform = 'win32' | 'posix';

export const hostPlatform = (): PathPlatform => (process.platform === 'win32' ? 'win32' : 'posix');

/** Percent-decoding that leaves a malformed escape as it is instead of throwing. */
function decode(text: string): string {
  return text.replace(/(%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/** The path a file: URI names, or undefined for another scheme or a URI that names no local path. */
export function uriToPath(uri: string, platform: PathPlatform = hostPlatform()): string | undefined {
  const match = /^file:(.*)$/is.exec(uri);
  if (!match) return undefined;
  let rest = match[1]!.replace(/[?#].*$/s, '');
  let authority = '';
  if (/^[/\\]{2}/.test(rest)) {
    rest = rest.slice(2);
    const cut = rest.search(/[/\\]/);
    authority = decode(cut < 0 ? rest : rest.slice(0, cut));
    rest = cut < 0 ? '/' : rest.slice(cut);
  }
  if (authority.toLowerCase() === 'localhost') authority = '';
  const path = decode(rest);
  if (platform === 'posix') {
    if (authority !== '' || !path.startsWith('/')) return undefined;
    return posix.normalize(path);
  }
  let p = path.replace(/\//g, '\\');
  if (authority !== '') return win32.normalize(`\\\\${authority}${p.startsWith('\\') ? '' : '\\'}${p}`);
  // "\c:\x" (a URI's path) and "c:\x" (a drive path pasted into the URI).
  const drive = /^\\?([A-Za-z]):(.*)$/.exec(p);
  if (!drive) return undefined;
  p = drive[2] === '' ? '\\' : drive[2]!;
  return win32.normalize(`${drive[1]!.toUpperCase()}:${p.startsWith('\\') ? '' : '\\'}${p}`);
}

/** Characters a path segment keeps in a URI; everything else is percent-encoded (VS Code's choice). */
const encodeSegment = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The file: URI of an absolute path, spelled as VS Code spells it. */
export function pathToUri(path: string, platform: PathPlatform = hostPlatform()): string {
  if (platform === 'posix') return `file://${posix.resolve(path).split('/').map(encodeSegment).join('/')}`;
  const full = win32.resolve(path);
  const unc = /^\\\\([^\\]+)\\(.*)$/.exec(full);
  if (unc) return `file://${encodeSegment(unc[1]!)}/${unc[2]!.split('\\').map(encodeSegment).join('/')}`;
  const drive = /^([A-Za-z]):\\?(.*)$/.exec(full)!;
  return `file:///${drive[1]!.toLowerCase()}%3A/${drive[2]!.split('\\').filter((s, i, all) => s !== '' || i === all.length - 1).map(encodeSegment).join('/')}`;
}

/** A key under which two spellings of one path compare equal (Windows paths ignore case). */
export function pathKey(path: string, platform: PathPlatform = hostPlatform()): string {
  return platform === 'win32' ? win32.normalize(path).toLowerCase() : posix.normalize(path);
}

/** Whether `file` is `folder` or inside it. */
export function isInside(folder: string, file: string, platform: PathPlatform = hostPlatform()): boolean {
  const path = platform === 'win32' ? win32 : posix;
  const rel = path.relative(pathKey(folder, platform), pathKey(file, platform));
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
