import type { Resource, ResourceModel } from '../contract/resource-model.js';
import { templateParameters } from '../contract/operation-index.js';
import { HttpError } from '../http/http-error.js';
import type { Item, ItemPlace } from '../state/item.js';
import type { ItemSeeds } from '../state/item-seeds.js';
import type { MockState, SessionId } from '../state/mock-state.js';

/** The contract's resources as the app serves them: what was inferred, and their seeded items. */
export interface ServedResources {
  readonly model: ResourceModel;
  readonly seeds: ItemSeeds;
}

/** A resource as GET /__admin/resources shows it (admin-openapi.yaml, ResourceSummary). */
function summaryOf(resource: Resource, items: number | null) {
  return {
    name: resource.name,
    collectionPath: resource.collectionPath,
    itemPath: resource.itemPath ?? null,
    parent: resource.parent ?? null,
    key: {
      property: resource.key.property,
      parameter: resource.key.parameter ?? null,
      kind: resource.key.kind,
      format: resource.key.format ?? null,
      fromClient: resource.key.fromClient,
    },
    operations: resource.operations.map((op) => ({
      role: op.role,
      operation: op.operation,
      status: op.status,
      ...(op.list && {
        filters: op.list.filters,
        ...(op.list.paging && { paging: op.list.paging }),
      }),
    })),
    hints: resource.hints,
    items,
  };
}

/** What the mock inferred, with the items a session holds of each top-level resource. */
export async function listResources(
  served: ServedResources,
  state: MockState,
  session: SessionId,
): Promise<unknown> {
  const resources = await Promise.all(
    served.model.resources.map(async (resource) => {
      if (resource.parent) return summaryOf(resource, null);
      const place = { resource: resource.name, parents: [] };
      return summaryOf(resource, (await state.listItems(session, served.seeds, place)).length);
    }),
  );
  return { resources, stateless: served.model.stateless };
}

/** The items a session holds of one resource, under the parents a nested one names. */
export async function resourceItems(
  served: ServedResources,
  state: MockState,
  session: SessionId,
  name: string,
  parents: readonly string[],
): Promise<readonly Item[]> {
  const resource = served.model.resources.find((candidate) => candidate.name === name);
  if (!resource) {
    const known = served.model.resources.map((r) => r.name).join(', ') || 'none';
    throw new HttpError(404, 'not_found', `No resource is named '${name}' (known: ${known}).`);
  }
  // Items sit under every parameter of their collection path (resource-handlers.ts placeOf).
  const depth = templateParameters(resource.collectionPath).length;
  if (parents.length !== depth) {
    throw new HttpError(
      400,
      'bad_request',
      `Resource '${name}' sits under ${String(depth)} path parameter(s) of ${resource.collectionPath}: give their values as ?parent=, outermost first (${String(parents.length)} given).`,
    );
  }
  const place: ItemPlace = { resource: name, parents };
  return state.listItems(session, served.seeds, place);
}
