// LibEvoBench's built-in models: the reference models (reference-models.ts) over the matrices, answering from the
// pinned column (reference-pinned, version-aware) or the newest (reference-newest, version-oblivious).
import type { MatrixCatalog } from '../../core/api-model.js';
import { listMatrixApis, type ApiListing } from '../../store/api-listing.js';
import { openMatrixCatalog, type LoadedCatalog } from '../../store/catalog.js';
import type { Answer, BuiltinOpener } from '../models/builtin.js';
import { ReferenceModel } from './reference-models.js';
import { InputError } from '../../core/errors.js';

export const LIBEVOBENCH_BUILTIN_MODELS: readonly string[] = ['reference-pinned', 'reference-newest'];

export interface ReferenceKnowledge {
  catalog: LoadedCatalog;
  listing: ApiListing;
  close(): void;
}

/** Opens every matrix in a folder for the reference models. Throws when the folder holds none. */
export function openReferenceKnowledge(matricesFolder: string): ReferenceKnowledge {
  const catalog = openMatrixCatalog(matricesFolder);
  if (catalog.matrices.length === 0) {
    catalog.close();
    throw new InputError(`reference models need matrices: ${catalog.problems.join('; ') || `none in ${matricesFolder}`}`);
  }
  return { catalog, listing: listMatrixApis, close: () => catalog.close() };
}

/** What the reference models answer from. */
export interface ReferenceOptions {
  catalog?: MatrixCatalog;
  listing?: ApiListing;
}

/** The answer of a reference model over the given matrices; undefined for a model that is not one. */
export function referenceAnswer(model: string, options: ReferenceOptions): Answer | undefined {
  if (!LIBEVOBENCH_BUILTIN_MODELS.includes(model)) return undefined;
  if (!options.catalog || !options.listing) throw new Error(`the ${model} model needs the matrices (a catalog and an API listing)`);
  const reference = new ReferenceModel(options.catalog, options.listing, model === 'reference-pinned' ? 'pinned' : 'newest');
  return (messages) => reference.answerPrompt(messages);
}

/** The reference models of a run: over matrices already open (left open), or opened from a folder for the run. */
export function libevobenchBuiltins(source: { knowledge?: ReferenceKnowledge; matricesFolder?: string }): BuiltinOpener {
  return ({ model }) => {
    if (!LIBEVOBENCH_BUILTIN_MODELS.includes(model)) return undefined;
    let own: ReferenceKnowledge | undefined;
    let knowledge = source.knowledge;
    if (!knowledge) {
      if (!source.matricesFolder) throw new InputError(`the ${model} model needs a matrices folder`);
      knowledge = own = openReferenceKnowledge(source.matricesFolder);
    }
    return { answer: referenceAnswer(model, knowledge)!, close: () => own?.close() };
  };
}
