// How many bytes, as people read them in a progress line or a cache listing: kB below a megabyte (never "0 kB"),
// MB with one decimal above it.
export function byteSize(bytes: number): string {
  if (bytes < 1024 ** 2) return `${Math.max(1, Math.round(bytes / 1024))} kB`;
  return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
}
