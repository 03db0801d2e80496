import { createAnswerCheck } from '../contract/answer-check.js';
import { localRefSteps } from '../contract/json-pointer.js';
import type { Resource } from '../contract/resource-model.js';
import type { MockState } from '../state/mock-state.js';
import { resourceOfPlace } from '../state/item.js';
import { isRecord } from '../util/is-record.js';
import { FileError } from '../util/located-file.js';
import type { MockDefinition } from './load-definition.js';

/** Items named in a refusal's message; the count says how many more. */
const SHOWN = 3;

/** Where an item schema is written: its component where it names one, else its item path. */
function placeOfSchema(resource: Resource): readonly string[] {
  const ref = isRecord(resource.itemSchema) ? resource.itemSchema.$ref : undefined;
  const steps = typeof ref === 'string' ? localRefSteps(ref) : undefined;
  return steps ?? ['paths', resource.itemPath ?? resource.collectionPath];
}

/**
 * The items a new contract cannot keep: items sessions hold (in places they wrote to) that the
 * new contract's item schema of their resource refuses, as a FileError at that schema; or none.
 * Items of a resource the new contract no longer has are kept, unread, until a reset.
 */
export async function keptItemsProblem(
  state: MockState,
  next: MockDefinition,
  applyWithReset: string,
): Promise<FileError | undefined> {
  const stored = await state.storedItems();
  if (stored.length === 0) return undefined;
  const resources = new Map(next.resources.resources.map((r) => [r.name, r]));
  const check = createAnswerCheck(next.contract.schemaDocument);
  const refused: string[] = [];
  let count = 0;
  let first: Resource | undefined;
  for (const { session, place, items } of stored) {
    const resource = resources.get(resourceOfPlace(place));
    if (!resource) continue;
    for (const item of items) {
      const problems = check(resource.itemSchema, item);
      if (problems.length === 0) continue;
      count += 1;
      first ??= resource;
      if (refused.length < SHOWN) {
        const key = String(item[resource.key.property]);
        refused.push(
          `${resource.name} ${key} of ${session ?? 'the default session'}: ${problems.join('; ')}`,
        );
      }
    }
  }
  if (!first) return undefined;
  const { file, position } = next.contract.placeOf(placeOfSchema(first));
  return new FileError(
    file,
    `${String(count)} stored item(s) do not satisfy the new contract (first: ${refused.join('; ')}): ${applyWithReset}`,
    position,
  );
}
