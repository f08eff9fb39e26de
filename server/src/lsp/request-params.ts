// The shape of a custom request's params, checked where they arrive: a client (or anything on the other end of the
// pipe) may send null, a number for a string, a string for a list. Without this, the handlers' `params.api?.trim()`
// and `for (const u of params.uris)` answered with raw TypeErrors reported as internal errors; now with InvalidParams
// saying which field must be what.
import { ErrorCodes, ResponseError } from 'vscode-languageserver';

export type FieldKind = 'string' | 'number' | 'boolean' | 'string[]' | 'position' | 'any';

/** Fields of a request's params: their kind and whether they must be there. */
export type ParamsShape = Record<string, { kind: FieldKind; required?: boolean }>;

const isPosition = (v: unknown) => typeof v === 'object' && v !== null && Number.isInteger((v as { line?: unknown }).line) && Number.isInteger((v as { character?: unknown }).character);

function fits(kind: FieldKind, value: unknown): boolean {
  switch (kind) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'string[]':
      return Array.isArray(value) && value.every((v) => typeof v === 'string');
    case 'position':
      return isPosition(value);
    case 'any':
      return true;
  }
}

const described: Record<FieldKind, string> = { string: 'a string', number: 'a number', boolean: 'true or false', 'string[]': 'a list of strings', position: 'a position { line, character } of whole numbers', any: 'given' };

/** `params` as `T` where it has `shape` (optional fields absent or null count as absent), else InvalidParams naming the field. */
export function checkedParams<T>(method: string, params: unknown, shape: ParamsShape): T {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) throw new ResponseError(ErrorCodes.InvalidParams, `${method}: the params must be an object`);
  const record = params as Record<string, unknown>;
  for (const [name, { kind, required }] of Object.entries(shape)) {
    const value = record[name];
    if (value === undefined || value === null) {
      if (required) throw new ResponseError(ErrorCodes.InvalidParams, `${method}: params.${name} must be ${described[kind]}`);
      continue;
    }
    if (!fits(kind, value)) throw new ResponseError(ErrorCodes.InvalidParams, `${method}: params.${name} must be ${described[kind]}`);
  }
  return params as T;
}
