// The SQLite layout of a compatibility matrix (one file per library). Bump MATRIX_SCHEMA_VERSION on any change.
export const MATRIX_SCHEMA_VERSION = 3;

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
CREATE TABLE apis (
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,      -- public import path, e.g. numpy.linalg.norm
  kind TEXT NOT NULL,             -- kind at the newest version that has it
  evolution TEXT NOT NULL,        -- stable: present everywhere with one signature shape; evolving: otherwise
  documented_ever INTEGER NOT NULL
);
CREATE TABLE signatures (id INTEGER PRIMARY KEY, parameters TEXT NOT NULL UNIQUE);
CREATE TABLE docs (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE);
-- The A matrix, stored as runs of consecutive versions with identical cells. Cells not covered by a span are
-- "not resolved, not documented": runtime 0, documented 0 (or NULL without docs), state absent.
--   runtime: 1 resolved (introspection or static extraction), 0 not found, NULL could not look (module failed);
--   documented: 1 listed in the docs, 0 not listed, NULL no documentation evidence for this version;
--   state: present | absent | na (see cell-state.ts).
CREATE TABLE spans (
  api_id INTEGER NOT NULL REFERENCES apis(id),
  first_ordinal INTEGER NOT NULL,
  last_ordinal INTEGER NOT NULL,
  state TEXT NOT NULL,
  runtime INTEGER,
  documented INTEGER,
  kind TEXT,
  signature_id INTEGER REFERENCES signatures(id),
  signature_source TEXT,
  returns TEXT,
  doc_id INTEGER REFERENCES docs(id),
  exported INTEGER,               -- 1 in the module's __all__ (what a star import brings), 0 reachable but not exported
  PRIMARY KEY (api_id, first_ordinal)
) WITHOUT ROWID;
-- Renamed APIs usually keep their documentation: the checker looks replacements up by doc.
CREATE INDEX spans_by_doc ON spans (doc_id);
CREATE TABLE unresolved_modules (
  version_id INTEGER NOT NULL REFERENCES versions(id),
  module TEXT NOT NULL,
  error TEXT NOT NULL,
  PRIMARY KEY (version_id, module)
) WITHOUT ROWID;
-- Every (API, version) cell, spans expanded.
CREATE VIEW cells AS
  SELECT apis.id AS api_id, versions.id AS version_id,
    CASE WHEN s.api_id IS NULL THEN 'absent' ELSE s.state END AS state,
    CASE WHEN s.api_id IS NULL THEN 0 ELSE s.runtime END AS runtime,
    CASE WHEN s.api_id IS NULL THEN (CASE WHEN versions.has_docs THEN 0 END) ELSE s.documented END AS documented,
    s.kind AS kind, s.signature_id AS signature_id, s.signature_source AS signature_source, s.returns AS returns, s.doc_id AS doc_id
  FROM apis CROSS JOIN versions
  LEFT JOIN spans s ON s.api_id = apis.id AND versions.ordinal BETWEEN s.first_ordinal AND s.last_ordinal;
-- The S matrix: (API, signature) x version, for the cells that have a signature.
CREATE VIEW signature_matrix AS
  SELECT apis.path AS api, signatures.parameters AS signature, versions.version AS version, s.state AS state
  FROM spans s JOIN apis ON apis.id = s.api_id JOIN signatures ON signatures.id = s.signature_id
  JOIN versions ON versions.ordinal BETWEEN s.first_ordinal AND s.last_ordinal;
`;
