// Reading one JSON file that python-probe wrote, gzipped or not, for every surface reader of the store: what went
// wrong (the read, the gzip, the JSON) is said as input, naming the file.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { InputError } from '../core/errors.js';

export function readJsonFile(file: string): unknown {
  let raw: Buffer;
  try {
    raw = readFileSync(file);
  } catch (e) {
    throw new InputError(`${file}: cannot read: ${(e as Error).message}`);
  }
  let text: string;
  try {
    text = (file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
  } catch (e) {
    throw new InputError(`${file}: not valid gzip: ${(e as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new InputError(`${file}: not valid JSON: ${(e as Error).message}`);
  }
}
