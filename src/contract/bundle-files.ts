import { dirname, resolve } from 'node:path';
import { isRecord } from '../util/is-record.js';
import { FileError, type PathStep, type Position } from '../util/located-file.js';
import { readContractFile, type ContractFile } from './contract-text.js';
import { pointerOf, stepsOf } from './json-pointer.js';

/** Where the files a contract's `$ref`s name are kept in the bundled document, one entry each. */
export const BUNDLED_FILES = 'x-mock-files';

/** A contract with the files its `$ref`s name brought into it, and where each value came from. */
export interface BundledContract {
  /** The document; every `$ref` in it is local (`#/…`). */
  readonly value: unknown;
  /** The file and place a value of the bundled document was written at. */
  where(steps: readonly PathStep[]): { file: string; position: Position | undefined };
  /** The files brought in (absolute paths), the contract's own not included. */
  readonly files: readonly string[];
  /** The `$ref` as its file wrote it, for one the bundle rewrote (keyed by its JSON pointer). */
  readonly writtenRefs: ReadonlyMap<string, string>;
}

/**
 * Keys whose values are data, never references to follow: examples, defaults, enumerations. An
 * Example object's `value` is data too; `examples` is a map of Example objects (3.0's media
 * types) or a list of values (3.1's schemas).
 */
const DATA_KEYS = new Set(['example', 'default', 'enum', 'const']);

/**
 * Every `$ref` of a value outside its data, with where it is written, in document order; stops
 * at the first for which `visit` returns true.
 */
export function forEachRef(
  value: unknown,
  visit: (ref: string, steps: readonly PathStep[]) => boolean | undefined,
): void {
  // One stack of steps for the walk, copied only for a reference found: a large contract has
  // hundreds of thousands of values and a few thousand references.
  const steps: PathStep[] = [];
  const walk = (node: unknown): boolean => {
    if (Array.isArray(node)) {
      const items: unknown[] = node;
      for (let i = 0; i < items.length; i += 1) {
        steps.push(i);
        const stop = walk(items[i]);
        steps.pop();
        if (stop) return true;
      }
      return false;
    }
    if (!isRecord(node)) return false;
    for (const key of Object.keys(node)) {
      const child = node[key];
      let stop = false;
      if (key === '$ref' && typeof child === 'string') {
        stop = visit(child, [...steps, key]) === true;
      } else if (DATA_KEYS.has(key) || (key === 'examples' && Array.isArray(child))) {
        continue;
      } else if (key === 'value' && ('summary' in node || 'externalValue' in node)) {
        continue;
      } else {
        steps.push(key);
        stop = walk(child);
        steps.pop();
      }
      if (stop) return true;
    }
    return false;
  };
  walk(value);
}

/** A copy of a value with each `$ref` rewritten by `rewrite` (data left as written). */
function rewritten(value: unknown, rewrite: (ref: string, steps: PathStep[]) => string): unknown {
  const refs = new Map<string, string>();
  forEachRef(value, (ref, steps) => {
    refs.set(pointerOf(steps), rewrite(ref, [...steps]));
    return false;
  });
  if (refs.size === 0) return value;
  const copy = (node: unknown, at: string): unknown => {
    if (Array.isArray(node)) {
      const items: unknown[] = node;
      return items.map((item, i) => copy(item, `${at}/${i}`));
    }
    if (!isRecord(node)) return node;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node)) {
      const here = `${at}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
      out[key] = refs.get(here) ?? copy(child, here);
    }
    return out;
  };
  return copy(value, '');
}

/** Whether any `$ref` of a value names another file. */
function hasFileRef(value: unknown): boolean {
  let found = false;
  forEachRef(value, (ref) => {
    found = isFileRef(ref);
    return found;
  });
  return found;
}

/** Whether a `$ref` names another file (`pet.yaml#/Pet`, `./schemas/pet.json`), not the same one. */
function isFileRef(ref: string): boolean {
  return !ref.startsWith('#');
}

/**
 * Brings into one document the files that a contract's `$ref`s name beside it (`./schemas/pet.yaml`,
 * `common.yaml#/components/schemas/Error`), each resolved relative to the file that names it, as
 * OpenAPI says. Each file is kept whole under `x-mock-files` and the references into it become
 * local pointers; a reference to a file that cannot be read, or to nothing in it, is a FileError
 * at the `$ref` that names it. References over the network are not fetched: the mock starts from
 * files it has. A document without references to files is returned as it is.
 */
export function bundleFiles(root: ContractFile): BundledContract {
  const files: ContractFile[] = [];
  const indexOf = new Map<string, number>();
  const rootPath = resolve(root.path);
  const bundled: unknown[] = [];
  const writtenRefs = new Map<string, string>();

  const where = (steps: readonly PathStep[]): { file: string; position: Position | undefined } => {
    const [first, index, ...rest] = steps;
    const file =
      first === BUNDLED_FILES && typeof index === 'string' ? files[Number(index)] : undefined;
    return file
      ? { file: file.path, position: file.positionOf(rest) }
      : { file: root.path, position: root.positionOf(steps) };
  };

  /** The local pointer prefix of a file: `` for the root, `/x-mock-files/<n>` for another. */
  const prefixOf = (from: ContractFile, ref: string, steps: PathStep[]): string => {
    const hash = ref.indexOf('#');
    const target = hash < 0 ? ref : ref.slice(0, hash);
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) && !/^file:/i.test(target)) {
      const at =
        from === root ? where(steps) : { file: from.path, position: from.positionOf(steps) };
      throw new FileError(
        at.file,
        `$ref ${ref}: references over the network are not fetched; keep the file beside the contract`,
        at.position,
      );
    }
    const written = target.replace(/^file:\/\//i, '');
    let decoded = written;
    try {
      decoded = decodeURI(written);
    } catch {
      // Not percent-encoding: the file name as written.
    }
    const path = resolve(dirname(from.path), decoded);
    if (path === rootPath) return '';
    let index = indexOf.get(path);
    if (index === undefined) {
      let file: ContractFile;
      try {
        file = readContractFile(path, 'the file');
      } catch (error) {
        const reason = error instanceof FileError ? error.reason : String(error);
        throw new FileError(from.path, `$ref ${ref}: ${reason}`, from.positionOf(steps));
      }
      index = files.length;
      indexOf.set(path, index);
      files.push(file);
      bundled.push(undefined);
      bundled[index] = rewritten(file.value, (inner, innerSteps) =>
        localOf(file, inner, innerSteps, index ?? 0),
      );
    }
    return `/${BUNDLED_FILES}/${index}`;
  };

  /** A reference written in `from` (file number `own`, -1 for the root) as a local pointer. */
  const localOf = (from: ContractFile, ref: string, steps: PathStep[], own: number): string => {
    const hash = ref.indexOf('#');
    const fragment = hash < 0 ? '' : ref.slice(hash + 1);
    const ownPrefix = own < 0 ? '' : `/${BUNDLED_FILES}/${own}`;
    const prefix = isFileRef(ref) ? prefixOf(from, ref, steps) : ownPrefix;
    writtenRefs.set(`${ownPrefix}${pointerOf(steps)}`, ref);
    return `#${prefix}${fragment === '' ? '' : pointerOf(stepsOf(fragment))}`;
  };

  if (!hasFileRef(root.value)) return { value: root.value, where, writtenRefs, files: [] };
  const value = rewritten(root.value, (ref, steps) => localOf(root, ref, steps, -1));
  const paths = files.map((file) => file.path);
  if (!isRecord(value)) return { value, where, writtenRefs, files: paths };
  return {
    value: {
      ...value,
      [BUNDLED_FILES]: Object.fromEntries(bundled.map((file, i) => [String(i), file])),
    },
    where,
    writtenRefs,
    files: paths,
  };
}
