// Small integer codes for the enumerations the matrix stores in every span (kept compact: torch has ~280k spans).
// The SQL views decode them, so queries by hand read text.
export const KIND_CODES = ['module', 'class', 'function', 'method', 'property', 'attribute'] as const;
// Codes are only ever appended: a matrix built before a code existed never stores it, and reads as it did.
export const SOURCE_CODES = ['inspect', 'docstring', 'stub', 'static', 'parser'] as const;
export const EVOLUTION_CODES = ['stable', 'evolving'] as const;

export function encode<T extends string>(codes: readonly T[], value: string | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const i = codes.indexOf(value as T);
  if (i < 0) throw new Error(`cannot encode "${value}" (known: ${codes.join(', ')})`);
  return i;
}

export function decode<T extends string>(codes: readonly T[], code: number | null): T | null {
  return code === null ? null : (codes[code] ?? null);
}

/** SQL that decodes a column: CASE col WHEN 0 THEN 'a' … END. */
export function decodeSql(codes: readonly string[], column: string): string {
  return `CASE ${column} ${codes.map((c, i) => `WHEN ${i} THEN '${c}'`).join(' ')} END`;
}
