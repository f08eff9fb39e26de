// The SQLite layout of a compatibility matrix (one file per library). Bump MATRIX_SCHEMA_VERSION on any change.
import { decodeSql, EVOLUTION_CODES, KIND_CODES, SOURCE_CODES } from './codes.js';

/** decideState (cell-state.ts) in SQL, for a span alias and a versions alias. */
export function stateSql(span: string, version: string): string {
  return `CASE WHEN ${span}.runtime IS NULL THEN 'na' WHEN NOT ${version}.has_docs THEN (CASE WHEN ${span}.runtime THEN 'present' ELSE 'absent' END)
    WHEN ${span}.runtime AND ${span}.documented THEN 'present' WHEN ${span}.documented THEN 'na' ELSE 'absent' END`;
}

export const MATRIX_SCHEMA_VERSION = 5;

export const MATRIX_SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
-- One row per tracked version; ordinal is the PEP 440 order.
CREATE TABLE versions (
  id INTEGER PRIMARY KEY,
  version TEXT NOT NULL UNIQUE,
  ordinal INTEGER NOT NULL UNIQUE,
  source TEXT NOT NULL,           -- evidence that decides resolution: debian-runtime, runtime, static …
  provenance TEXT NOT NULL,       -- JSON: repository/tag/commit or Debian suite/package/version, python …
  python TEXT,
  has_docs INTEGER NOT NULL,      -- 1 when a documented surface exists for this version
  stats TEXT NOT NULL,            -- JSON: see VersionStats
  agreement TEXT                  -- JSON: static-vs-runtime agreement, when both exist
);
-- Public paths as a tree of names (numpy -> linalg -> norm): each path is stored once, segment by segment.
CREATE TABLE apis (
  id INTEGER PRIMARY KEY,
  parent_id INTEGER NOT NULL,     -- 0 for the library's root module
  name TEXT NOT NULL,
  kind INTEGER,                   -- kind at the newest version that has it (codes.ts); NULL: a segment, not an API
  evolution INTEGER,              -- stable: present everywhere, every two signatures the same to a caller (core/caller-signature.ts); evolving: otherwise
  documented_ever INTEGER NOT NULL,
  alias_of INTEGER                -- this node's members are those of node alias_of, identical in every version (shared-subtrees.ts)
);
CREATE UNIQUE INDEX apis_by_name ON apis (parent_id, name);
CREATE TABLE signatures (id INTEGER PRIMARY KEY, parameters TEXT NOT NULL UNIQUE);
CREATE TABLE texts (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE);  -- doc summaries and return annotations
-- The A matrix, stored as runs of consecutive versions with identical cells. Cells not covered by a span are
-- "not resolved, not documented": runtime 0, documented 0 (or NULL without docs), state absent.
--   runtime: 1 resolved (introspection or static extraction), 0 not found, NULL could not look (module failed);
--   documented: the docs bit at the versions of the span that have documentation (versions.has_docs): 1 listed,
--     0 not listed; NULL when the span covers no such version. Versions without docs never break a span, which is
--     what keeps it compact: docs exist for minor releases only, resolution evidence for every release.
-- The paper's state (present | absent | na) is not stored: it follows from runtime, documented and has_docs
-- (cell-state.ts; the views below compute it).
CREATE TABLE spans (
  api_id INTEGER NOT NULL,
  first_ordinal INTEGER NOT NULL,
  last_ordinal INTEGER NOT NULL,
  runtime INTEGER,
  documented INTEGER,
  kind INTEGER,
  signature_id INTEGER,
  signature_source INTEGER,
  returns_id INTEGER,
  doc_id INTEGER,
  exported INTEGER,               -- 1 in the module's __all__ (what a star import brings), 0 reachable but not exported
  PRIMARY KEY (api_id, first_ordinal)
) WITHOUT ROWID;
-- Renamed APIs usually keep their documentation: the checker looks replacements up by doc.
CREATE INDEX spans_by_doc ON spans (doc_id) WHERE doc_id IS NOT NULL;
-- The library's own notes on names it removed (numpy's __expired_attributes__: "Use \`np.inf\` instead."), from the
-- newest version that records one; the checker quotes them and takes a replacement from them.
CREATE TABLE removal_notes (path TEXT PRIMARY KEY, note TEXT NOT NULL, version TEXT NOT NULL) WITHOUT ROWID;
-- What the library itself deprecates (python-probe/deprecations.py: its DeprecationWarning paths, deprecation
-- decorators, .. deprecated:: directives, __deprecated_attrs__ tables), as runs of versions: parameter '' is the
-- API itself, a keyword name that keyword, '*' every member of a module. Matrices built before it lack the table.
CREATE TABLE deprecations (
  path TEXT NOT NULL,
  parameter TEXT NOT NULL,
  first_ordinal INTEGER NOT NULL,
  last_ordinal INTEGER NOT NULL,
  evidence TEXT NOT NULL,
  message TEXT,
  source TEXT NOT NULL,
  PRIMARY KEY (path, parameter, first_ordinal)
) WITHOUT ROWID;
CREATE TABLE unresolved_modules (
  version_id INTEGER NOT NULL REFERENCES versions(id),
  module TEXT NOT NULL,
  error TEXT NOT NULL,
  PRIMARY KEY (version_id, module)
) WITHOUT ROWID;
-- Every API with its dotted path and decoded kind.
CREATE VIEW api_list AS
  WITH RECURSIVE paths(id, path) AS (
    SELECT id, name FROM apis WHERE parent_id = 0
    UNION ALL SELECT apis.id, paths.path || '.' || apis.name FROM apis JOIN paths ON apis.parent_id = paths.id)
  SELECT apis.id AS id, paths.path AS path, ${decodeSql(KIND_CODES, 'apis.kind')} AS kind,
    ${decodeSql(EVOLUTION_CODES, 'apis.evolution')} AS evolution, apis.documented_ever AS documented_ever
  FROM apis JOIN paths ON paths.id = apis.id WHERE apis.kind IS NOT NULL;
-- Every (API, version) cell, spans expanded and decoded.
CREATE VIEW cells AS
  SELECT a.id AS api_id, a.path AS path, versions.id AS version_id, versions.version AS version,
    CASE WHEN s.api_id IS NULL THEN 'absent' ELSE ${stateSql('s', 'versions')} END AS state,
    CASE WHEN s.api_id IS NULL THEN 0 ELSE s.runtime END AS runtime,
    CASE WHEN versions.has_docs THEN COALESCE(s.documented, 0) END AS documented,
    ${decodeSql(KIND_CODES, 's.kind')} AS kind, s.signature_id AS signature_id,
    ${decodeSql(SOURCE_CODES, 's.signature_source')} AS signature_source, s.returns_id AS returns_id, s.doc_id AS doc_id
  FROM api_list a CROSS JOIN versions
  LEFT JOIN spans s ON s.api_id = a.id AND versions.ordinal BETWEEN s.first_ordinal AND s.last_ordinal;
-- The S matrix: (API, signature) x version, for the cells that have a signature.
CREATE VIEW signature_matrix AS
  SELECT a.path AS api, signatures.parameters AS signature, versions.version AS version, ${stateSql('s', 'versions')} AS state
  FROM spans s JOIN api_list a ON a.id = s.api_id JOIN signatures ON signatures.id = s.signature_id
  JOIN versions ON versions.ordinal BETWEEN s.first_ordinal AND s.last_ordinal;
`;
