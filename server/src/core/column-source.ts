// Where a version column of the user's matrices came from, in words, for the hover and `anachron history`.

/** "toylib-2.1.0-py3-none-any.whl from https://pypi.org/simple (sha256 1bd35b79e9e3)", "probed in /venv/bin/python". */
export function describeColumnSource(provenance: Record<string, string>): string {
  if (provenance.file) return `${provenance.file} from ${provenance.index ?? 'a package index'}${provenance.sha256 ? ` (sha256 ${provenance.sha256.slice(0, 12)})` : ''}`;
  if (provenance.python) return `probed in ${provenance.python}`;
  return Object.entries(provenance).map(([k, v]) => `${k}=${v}`).join(', ');
}
