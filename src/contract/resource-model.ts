/**
 * What the mock reads from a contract about its resources (issue 30): which operations keep state,
 * on which collection, under which key, and how their bodies and answers carry the items. Made by
 * infer-resources.ts from the document alone, with the contract's `x-mock-*` hints and a hints file
 * beside it where inference cannot see; read by the resource engine and shown by
 * `GET /__admin/resources`. Plain data: it names operations, parameters and properties, and holds
 * the item schema as the schema document writes it.
 */
export interface ResourceModel {
  readonly resources: readonly Resource[];
  /** Every operation of the contract no resource claims, with why: answered from the contract. */
  readonly stateless: readonly StatelessOperation[];
}

/** An operation answered from the contract (its example or generated data), and why. */
export interface StatelessOperation {
  /** Operation.name: its operationId, else `GET /path/{template}`. */
  readonly operation: string;
  /** In plain words, e.g. "its answer is not the item of /orders/{orderId}". */
  readonly reason: string;
}

/** A collection of items the mock keeps per session: created, read, listed, changed, deleted. */
export interface Resource {
  /**
   * Unique among the contract's resources, from the collection path's literal segments joined by
   * `.` (`orders`, `users.orders`, `store.order`); shown by the admin API and the console.
   */
  readonly name: string;
  /** The collection's path as the document writes it (`/users/{userId}/orders`). */
  readonly collectionPath: string;
  /** The item's path as the document writes it (`/users/{userId}/orders/{orderId}`), if any. */
  readonly itemPath: string | undefined;
  /**
   * The resource whose item the collection sits under, and the path parameter naming that item:
   * orders of user 7 are not orders of user 8; an unknown parent is a 404.
   */
  readonly parent: { readonly resource: string; readonly parameter: string } | undefined;
  readonly key: ResourceKey;
  /**
   * The item's JSON Schema, as the schema document writes it (component references kept): what
   * seeded items are generated from and kept items are checked against on a reload.
   */
  readonly itemSchema: unknown;
  /** Properties the mock never answers (`writeOnly`), kept where stored. */
  readonly writeOnly: readonly string[];
  /** Its operations, at most one per role, except `list` (a search path may list too). */
  readonly operations: readonly ResourceOperation[];
  /** Where the model came from a hint rather than inference: what it said (for the admin API). */
  readonly hints: readonly string[];
}

/** How an item is named: the property that holds its key, and how new keys are made. */
export interface ResourceKey {
  /** The item's property holding it, e.g. `id`, `username`. */
  readonly property: string;
  /** The item path's parameter naming it, e.g. `orderId`; undefined without an item path. */
  readonly parameter: string | undefined;
  /**
   * How the server makes a new key: `integer` counted up per session after the largest seeded one
   * (int64 exact to 2^63-1 where the format says so), `uuid` generated, `string` generated.
   */
  readonly kind: 'integer' | 'uuid' | 'string';
  /** The schema's format, e.g. `int64`, `int32`, `uuid`. */
  readonly format: string | undefined;
  /**
   * Whether a create's body may carry the key: `never` (the server assigns it), `optional`
   * (the client's where sent, the server's else: the Swagger Petstore's `POST /pet` with `id`),
   * `required` (the client's own: `POST /user` with `username`). A taken key is refused.
   */
  readonly fromClient: 'never' | 'optional' | 'required';
}

export type ResourceRole = 'list' | 'create' | 'read' | 'replace' | 'update' | 'delete';

/** One operation of a resource: what it does, and how its body and answer carry the item. */
export interface ResourceOperation {
  readonly role: ResourceRole;
  /** Operation.name: its operationId, else `GET /path/{template}`. */
  readonly operation: string;
  /**
   * The success status it answers with: the contract's (the lowest 2XX it documents). Where it
   * documents a success only by `2XX` or `default`, or none at all (the Swagger Petstore's
   * `POST /pet` documents only a 405), the role's usual one: 201 for a create, 204 for a delete
   * without content, else 200 (undocumented in the last case).
   */
  readonly status: number;
  /** Whether that success answer has a body (a 204, or a 200 documented without content: none). */
  readonly answersBody: boolean;
  /** The one property the item sits in, in the answer (`{"article": {…}}`); undefined: bare. */
  readonly answerWrapper: string | undefined;
  /** The same for the request body (create, replace, update). */
  readonly bodyWrapper: string | undefined;
  /**
   * create, replace, update, delete: the answer carries only these properties of the item
   * (`{"id": …}`; none for an empty object, as Asana's delete answers `{"data": {}}`);
   * undefined: the whole item.
   */
  readonly answerProperties: readonly string[] | undefined;
  /** create: a `Location` header is documented for its success answer. */
  readonly location: boolean;
  /**
   * Statuses it documents for the engine's refusals: `notFound` (no such item or parent: 404 where
   * documented), `conflict` (a taken key on create: 409 where documented, else 400). Undefined
   * where the contract documents none: the mock answers its own `{code, message, status}` with
   * 404 and 409, its answer then outside the contract like any undocumented refusal.
   */
  readonly notFound: number | undefined;
  readonly conflict: number | undefined;
  /** list: how its answer carries the items and what its query selects. */
  readonly list: ListShape | undefined;
  /**
   * update: how the body merges into the item, by media type: JSON Merge Patch (RFC 7396) for
   * `application/merge-patch+json`, a shallow merge of top-level properties for JSON.
   */
  readonly merge: 'merge-patch' | 'shallow' | undefined;
}

/** How a list's answer carries the items and which of its query parameters select them. */
export interface ListShape {
  /** The envelope's one array property holding the items (`data`, `items`…); undefined: bare array. */
  readonly itemsProperty: string | undefined;
  /**
   * The envelope's total count property (`total`, `total_count`, `count`…), if any: a dotted
   * path where it sits in an object of the envelope (`meta.total`).
   */
  readonly totalProperty: string | undefined;
  /**
   * The envelope's next-page property: a link (URI) or a cursor (opaque string), if any; a
   * dotted path where it sits in an object of the envelope (`links.pages.next`,
   * `_links.next.href`).
   */
  readonly next: { readonly property: string; readonly kind: 'link' | 'cursor' } | undefined;
  /** Query parameters that name a property of the item: equality filters. */
  readonly filters: readonly { readonly parameter: string; readonly property: string }[];
  readonly paging: Paging | undefined;
}

/** The paging parameters of a list, recognised by name, with the contract's bounds and defaults. */
export interface Paging {
  /** `limit`, `per_page`, `page_size`, `pageSize`, `size`, `count`…: items per page. */
  readonly size:
    | {
        readonly parameter: string;
        readonly default: number | undefined;
        readonly maximum: number | undefined;
      }
    | undefined;
  /**
   * Where the page starts: `offset` (items skipped), `page` (page number, from `first`: 0 or 1,
   * the schema's minimum), `cursor` (the next cursor an earlier answer gave), `after` (the key of
   * the item the page starts after: `starting_after`, `after`, `since`).
   */
  readonly start:
    | {
        readonly parameter: string;
        readonly kind: 'offset' | 'page' | 'cursor' | 'after';
        readonly first: number;
      }
    | undefined;
}
