// The anachron/history answer (the timeline view) as data: an API's state at every tracked version of its library,
// marked with the versions the file's pin lets it run and the columns that are the user's own.
import { formatSignature, type MatrixCatalog } from '../core/api-model.js';
import { bands } from '../core/hover.js';
import { describeOrigin, type Pin } from '../core/pins.js';
import { stateAt } from '../core/version-state.js';
import { normalizeDistributionName } from '../core/library-names.js';
import { checkedVersions } from './pins-response.js';
import type { HistoryResponse } from './protocol.js';

export interface HistoryQuery {
  /** The API's dotted path; undefined or empty when the request named none and none is under the cursor. */
  api: string | undefined;
  /** The pin of a distribution (normalised name) for the file asked about; nothing without a file. */
  pinOf(distribution: string): Pin | undefined;
  /** The versions of a library that are the user's own columns. */
  userVersionsOf(library: string): readonly string[];
}

export function historyResponse(catalog: MatrixCatalog, query: HistoryQuery): HistoryResponse {
  const api = query.api;
  if (!api) return { error: 'name an API, e.g. numpy.trapezoid', suggestions: [] };
  const root = api.split('.')[0]!;
  const matrix = catalog.forImportRoot(root);
  if (!matrix) {
    return { error: `no matrix tracks ${root}`, suggestions: catalog.libraries().map((m) => m.library) };
  }
  const history = matrix.lookup(api);
  if (!history) {
    const parent = api.slice(0, api.lastIndexOf('.'));
    return { error: `${api} is in no tracked version of ${matrix.distribution} (${matrix.versions.join(', ')})`, suggestions: parent && matrix.lookup(parent) ? [parent] : [] };
  }
  const pin = query.pinOf(normalizeDistributionName(matrix.distribution));
  const pinned = new Set(pin ? checkedVersions(pin, matrix) : []);
  const user = new Set(query.userVersionsOf(matrix.library));
  const short = api.slice(api.lastIndexOf('.') + 1);
  const at = pin?.exactVersion ? stateAt(history, pin.exactVersion, matrix.versions) : undefined;
  const docs = [...new Set(history.versions.map((c) => c.doc).filter((d): d is string => !!d))];
  const related = [...new Set(docs.flatMap((d) => matrix.apisWithDoc(d)))].filter((a) => a !== api).slice(0, 8);
  return {
    api,
    library: matrix.library,
    distribution: matrix.distribution,
    kind: history.kind,
    versions: history.versions.map((c) => ({
      version: c.version,
      state: c.state,
      kind: c.kind,
      signature: c.signature ? formatSignature(short, c.signature) : null,
      signatureSource: c.signatureSource,
      doc: c.doc,
      pinned: pinned.has(c.version),
      user: user.has(c.version),
    })),
    bands: bands(history, short, pinned),
    pin: pin ? `${matrix.distribution}${pin.specifier} (${describeOrigin(pin.origin)})` : null,
    atPin: at ? { version: at.version, state: at.state, basis: at.basis } : null,
    related,
  };
}
