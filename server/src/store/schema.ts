// The SQLite layout of a compatibility matrix (one file per library). Bump MATRIX_SCHEMA_VERSION on any change.
export const MATRIX_SCHEMA_VERSION = 1;

export const MATRIX_SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
-- One row per tracked version; ordinal is the PEP 440 order.
CREATE TABLE versions (
  id INTEGER PRIMARY KEY,
  version TEXT NOT NULL UNIQUE,
  ordinal INTEGER NOT NULL UNIQUE,
  source TEXT NOT NULL,
  provenance TEXT NOT NULL,       -- JSON object: repository/tag/commit or Debian suite/package/version, python …
  python TEXT,
  stats TEXT NOT NULL             -- JSON object: apis, callables, callables_with_signature, signature_sources
);
CREATE TABLE apis (
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,      -- public import path, e.g. numpy.linalg.norm
  kind TEXT NOT NULL,             -- kind at the newest version that has it
  evolution TEXT NOT NULL         -- stable: same signature in every version; evolving: otherwise
);
CREATE TABLE signatures (id INTEGER PRIMARY KEY, parameters TEXT NOT NULL UNIQUE);
CREATE TABLE docs (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE);
-- The A matrix, one cell per (API, version), with its evidence kept apart from the verdict:
--   runtime: 1 resolved by introspection/static resolution, 0 not found, NULL could not look (module failed);
--   documented: 1 listed in the docs, 0 not listed, NULL no documentation evidence for this version;
--   state: present | absent | na.
CREATE TABLE cells (
  api_id INTEGER NOT NULL REFERENCES apis(id),
  version_id INTEGER NOT NULL REFERENCES versions(id),
  state TEXT NOT NULL,
  runtime INTEGER,
  documented INTEGER,
  kind TEXT,
  signature_id INTEGER REFERENCES signatures(id),
  signature_source TEXT,
  returns TEXT,
  doc_id INTEGER REFERENCES docs(id),
  PRIMARY KEY (api_id, version_id)
) WITHOUT ROWID;
-- Renamed APIs usually keep their documentation: the checker looks replacements up by doc.
CREATE INDEX cells_by_doc ON cells (doc_id);
CREATE TABLE unresolved_modules (
  version_id INTEGER NOT NULL REFERENCES versions(id),
  module TEXT NOT NULL,
  error TEXT NOT NULL,
  PRIMARY KEY (version_id, module)
) WITHOUT ROWID;
-- The S matrix: (API, signature) x version.
CREATE VIEW signature_matrix AS
  SELECT apis.path AS api, signatures.parameters AS signature, versions.version AS version, cells.state AS state
  FROM cells JOIN apis ON apis.id = cells.api_id JOIN versions ON versions.id = cells.version_id
  JOIN signatures ON signatures.id = cells.signature_id;
`;
