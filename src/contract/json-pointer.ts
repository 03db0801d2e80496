import { isRecord } from '../util/is-record.js';
import type { PathStep } from '../util/located-file.js';

/** References followed in a row before a chain is taken for a loop. */
const MAX_HOPS = 32;

/** The steps of a JSON pointer (`/paths/~1pets/get`), as a `$ref`'s fragment writes it. */
export function stepsOf(pointer: string): string[] {
  if (pointer === '' || pointer === '/') return [];
  return pointer
    .replace(/^\//, '')
    .split('/')
    .map((raw) => {
      let step = raw;
      try {
        // A fragment may be percent-encoded (`%7Bid%7D`); a bad escape is read as written.
        step = decodeURIComponent(raw);
      } catch {
        step = raw;
      }
      return step.replaceAll('~1', '/').replaceAll('~0', '~');
    });
}

/** A JSON pointer for path steps: `['paths', '/pets']` → `/paths/~1pets`. */
export function pointerOf(steps: readonly PathStep[]): string {
  return steps
    .map((step) => `/${String(step).replaceAll('~', '~0').replaceAll('/', '~1')}`)
    .join('');
}

/** A local `$ref` (`#/components/schemas/Pet`): its pointer's steps; undefined for another kind. */
export function localRefSteps(ref: string): string[] | undefined {
  return ref.startsWith('#') ? stepsOf(ref.slice(1)) : undefined;
}

/** Where a value sits in a document: its steps from the root, once every `$ref` on the way is followed. */
export interface Located {
  readonly value: unknown;
  readonly steps: readonly string[];
}

/**
 * Follows path steps from the root of a document. Where a step lands on a reference (`{$ref}`),
 * the reference is followed before going on: tools such as json-schema-ref-parser write
 * pointers that pass through references, and OpenAPI documents bundled by them use them. The
 * result is where the value really is; undefined when nothing is there or a chain loops.
 */
export function locate(root: unknown, steps: readonly string[]): Located | undefined {
  let node: unknown = root;
  let at: string[] = [];
  let hops = 0;
  for (const step of steps) {
    while (isRecord(node) && typeof node.$ref === 'string') {
      const target = localRefSteps(node.$ref);
      hops += 1;
      if (target === undefined || hops > MAX_HOPS) return undefined;
      const found = locate(root, target);
      if (!found) return undefined;
      node = found.value;
      at = [...found.steps];
    }
    if (Array.isArray(node)) {
      const items: unknown[] = node;
      if (!/^\d+$/.test(step) || Number(step) >= items.length) return undefined;
      node = items[Number(step)];
    } else if (isRecord(node) && Object.hasOwn(node, step)) {
      node = node[step];
    } else {
      return undefined;
    }
    at.push(step);
  }
  return { value: node, steps: at };
}

/**
 * The value a chain of local references ends at, and where it sits: `value` itself when it is no
 * reference. Undefined for a reference to nothing, out of the document, or a loop.
 */
export function followRefs(root: unknown, value: unknown): Located | undefined {
  let node = value;
  let steps: readonly string[] = [];
  for (let hops = 0; isRecord(node) && typeof node.$ref === 'string'; hops += 1) {
    const target = localRefSteps(node.$ref);
    if (target === undefined || hops === MAX_HOPS) return undefined;
    const found = locate(root, target);
    if (!found) return undefined;
    node = found.value;
    steps = found.steps;
  }
  return { value: node, steps };
}
