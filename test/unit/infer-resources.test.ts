import { inferResources } from '../../src/contract/infer-resources.js';
import { loadContract } from '../../src/contract/load-contract.js';
import { NO_HINTS } from '../../src/contract/resource-hints.js';
import type {
  Resource,
  ResourceModel,
  ResourceOperation,
  ResourceRole,
} from '../../src/contract/resource-model.js';
import { defaultContractPath } from '../../src/util/paths.js';
import { makeTmpDir, removeTmpDir, writeTmpFile } from '../helpers/tmp-dir.js';

// Each rule of resource inference on a small contract written for it, loaded as a user's
// contract is (checked, normalized); the packaged Pet Store last.

let dir: string;

beforeEach(() => {
  dir = makeTmpDir();
});

afterEach(() => {
  removeTmpDir(dir);
});

type Json = Record<string, unknown>;

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const arrayOf = (items: Json): Json => ({ type: 'array', items });
const object = (properties: Json, required?: string[]): Json => ({
  type: 'object',
  properties,
  ...(required ? { required } : {}),
});
const json = (schema: Json): Json => ({ content: { 'application/json': { schema } } });
const answer = (status: number, schema?: Json, extra: Json = {}): Json => ({
  [String(status)]: { description: 'answer', ...(schema ? json(schema) : {}), ...extra },
});
const body = (schema: Json, mediaType = 'application/json'): Json => ({
  requestBody: { required: true, content: { [mediaType]: { schema } } },
});
const pathParameter = (name: string, type = 'integer'): Json => ({
  name,
  in: 'path',
  required: true,
  schema: { type },
});
const query = (name: string, schema: Json, required = false): Json => ({
  name,
  in: 'query',
  required,
  schema,
});

const ORDER = object(
  {
    id: { type: 'integer', format: 'int64', readOnly: true },
    item: { type: 'string' },
    status: { type: 'string', enum: ['placed', 'shipped'] },
    secret: { type: 'string', writeOnly: true },
    tags: arrayOf({ type: 'string' }),
  },
  ['item'],
);

/** The model of a contract written from `paths` and component `schemas`. */
function modelOf(paths: Json, schemas: Json = {}): ResourceModel {
  const file = writeTmpFile(dir, 'openapi.json', {
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    paths,
    components: { schemas },
  });
  const contract = loadContract(file, { checked: true });
  return inferResources(contract.document, contract.operations, NO_HINTS);
}

function resourceOf(model: ResourceModel, name: string): Resource {
  const found = model.resources.find((r) => r.name === name);
  if (!found) throw new Error(`no resource ${name}: ${JSON.stringify(model)}`);
  return found;
}

function roleOf(resource: Resource, role: ResourceRole): ResourceOperation {
  const found = resource.operations.find((op) => op.role === role);
  if (!found) throw new Error(`${resource.name} has no ${role}`);
  return found;
}

function reasonOf(model: ResourceModel, operation: string): string | undefined {
  return model.stateless.find((s) => s.operation === operation)?.reason;
}

/** An `/orders` collection with its item path: list, create, read, replace, update, delete. */
function ordersPaths(overrides: { collection?: Json; item?: Json } = {}): Json {
  return {
    '/orders': {
      get: { operationId: 'listOrders', responses: answer(200, arrayOf(ref('Order'))) },
      post: {
        operationId: 'createOrder',
        ...body(ref('Order')),
        responses: { ...answer(201, ref('Order')), ...answer(400) },
      },
      ...overrides.collection,
    },
    '/orders/{orderId}': {
      parameters: [pathParameter('orderId')],
      get: {
        operationId: 'getOrder',
        responses: { ...answer(200, ref('Order')), ...answer(404) },
      },
      put: {
        operationId: 'replaceOrder',
        ...body(ref('Order')),
        responses: answer(200, ref('Order')),
      },
      patch: {
        operationId: 'updateOrder',
        ...body(object({ status: { type: 'string' } }), 'application/merge-patch+json'),
        responses: answer(200, ref('Order')),
      },
      delete: { operationId: 'deleteOrder', responses: answer(204) },
      ...overrides.item,
    },
  };
}

describe('inferResources: the REST shapes of a collection and its item path', () => {
  it('finds every role, the key, the item schema and its writeOnly properties', () => {
    const model = modelOf(ordersPaths(), { Order: ORDER });
    expect(model.stateless).toEqual([]);
    const orders = resourceOf(model, 'orders');
    expect(orders).toMatchObject({
      collectionPath: '/orders',
      itemPath: '/orders/{orderId}',
      parent: undefined,
      key: { property: 'id', parameter: 'orderId', kind: 'integer', format: 'int64' },
      itemSchema: ref('Order'),
      writeOnly: ['secret'],
      hints: [],
    });
    expect(orders.operations.map((op) => [op.role, op.operation])).toEqual([
      ['list', 'listOrders'],
      ['create', 'createOrder'],
      ['read', 'getOrder'],
      ['replace', 'replaceOrder'],
      ['update', 'updateOrder'],
      ['delete', 'deleteOrder'],
    ]);
  });

  it('reads statuses, bodies, 404s and merges as the contract documents them', () => {
    const orders = resourceOf(modelOf(ordersPaths(), { Order: ORDER }), 'orders');
    expect(roleOf(orders, 'create')).toMatchObject({ status: 201, answersBody: true });
    expect(roleOf(orders, 'read')).toMatchObject({ status: 200, notFound: 404 });
    expect(roleOf(orders, 'delete')).toMatchObject({ status: 204, answersBody: false });
    expect(roleOf(orders, 'update').merge).toBe('merge-patch');
    expect(roleOf(orders, 'replace').merge).toBeUndefined();
    // A readOnly key is the server's: a taken one cannot happen, so no conflict status.
    expect(orders.key.fromClient).toBe('never');
    expect(roleOf(orders, 'create').conflict).toBeUndefined();
  });

  it('merges a JSON PATCH shallowly, and answers nothing for a success without content', () => {
    const model = modelOf(
      ordersPaths({
        item: {
          patch: {
            operationId: 'updateOrder',
            ...body(object({ status: { type: 'string' } })),
            responses: answer(200),
          },
          delete: { operationId: 'deleteOrder', responses: { ...answer(200), ...answer(202) } },
        },
      }),
      { Order: ORDER },
    );
    const orders = resourceOf(model, 'orders');
    expect(roleOf(orders, 'update')).toMatchObject({ merge: 'shallow', answersBody: false });
    expect(roleOf(orders, 'delete')).toMatchObject({ status: 200, answersBody: false });
  });

  it('takes allOf compositions: a create body that is part of the item, an answer that is it', () => {
    // The OpenAPI Initiative's petstore-expanded: Pet = allOf[NewPet, {id}].
    const model = modelOf(
      {
        '/pets': {
          get: { operationId: 'findPets', responses: answer(200, arrayOf(ref('Pet'))) },
          post: {
            operationId: 'addPet',
            ...body(ref('NewPet')),
            responses: answer(200, ref('Pet')),
          },
        },
        '/pets/{id}': {
          get: {
            operationId: 'find pet by id',
            parameters: [pathParameter('id')],
            responses: { ...answer(200, ref('Pet')), default: { description: 'error' } },
          },
        },
      },
      {
        NewPet: object({ name: { type: 'string' }, tag: { type: 'string' } }, ['name']),
        Pet: {
          allOf: [ref('NewPet'), object({ id: { type: 'integer', format: 'int64' } }, ['id'])],
        },
      },
    );
    const pets = resourceOf(model, 'pets');
    expect(pets.key).toEqual({
      property: 'id',
      parameter: 'id',
      kind: 'integer',
      format: 'int64',
      fromClient: 'never',
    });
    expect(roleOf(pets, 'create')).toMatchObject({ status: 200, answerProperties: undefined });
    // `default` documents every status: a 404 and a 409 are the contract's.
    expect(roleOf(pets, 'read').notFound).toBe(404);
  });

  it('needs a read, or a list and a create; says why otherwise', () => {
    const model = modelOf(
      {
        '/stats': {
          get: {
            operationId: 'getStats',
            responses: answer(200, object({ n: { type: 'integer' } })),
          },
        },
        '/logs': { get: { operationId: 'listLogs', responses: answer(200, arrayOf(ref('Log'))) } },
        '/jobs/{jobId}': {
          delete: {
            operationId: 'cancelJob',
            parameters: [pathParameter('jobId')],
            responses: answer(204),
          },
        },
      },
      { Log: object({ id: { type: 'integer' } }) },
    );
    expect(model.resources).toEqual([]);
    expect(reasonOf(model, 'getStats')).toBe('no item path nor list for /stats');
    expect(reasonOf(model, 'listLogs')).toBe(
      '/logs has no item path, and no create beside its list',
    );
    expect(reasonOf(model, 'cancelJob')).toBe(
      'no read of /jobs/{jobId}, nor a list and a create on /jobs',
    );
  });

  it('makes a resource of a list and a create alone, keyed by the item id', () => {
    const model = modelOf(
      {
        '/events': {
          get: { operationId: 'listEvents', responses: answer(200, arrayOf(ref('Event'))) },
          post: {
            operationId: 'addEvent',
            ...body(ref('Event')),
            responses: answer(201, ref('Event')),
          },
        },
      },
      { Event: object({ event_id: { type: 'string', format: 'uuid' }, at: { type: 'string' } }) },
    );
    const events = resourceOf(model, 'events');
    expect(events.itemPath).toBeUndefined();
    expect(events.key).toMatchObject({ property: 'event_id', parameter: undefined, kind: 'uuid' });
    expect(events.key.fromClient).toBe('optional');
  });

  it('leaves each other operation stateless with the reason', () => {
    const model = modelOf(
      ordersPaths({
        collection: {
          delete: { operationId: 'purgeOrders', responses: answer(204) },
        },
        item: {
          post: { operationId: 'shipOrder', responses: answer(200, ref('Order')) },
          put: {
            operationId: 'replaceOrder',
            ...body(ref('Order')),
            responses: answer(200, object({ ok: { type: 'boolean' } })),
          },
        },
      }),
      { Order: ORDER },
    );
    expect(reasonOf(model, 'shipOrder')).toBe(
      'POST /orders/{orderId} is not a REST shape: a POST on an item path',
    );
    expect(reasonOf(model, 'purgeOrders')).toBe(
      'DELETE /orders is not a REST shape: a DELETE on a collection path',
    );
    expect(reasonOf(model, 'replaceOrder')).toBe('its answer is not the item of /orders/{orderId}');
  });

  it('names no key it cannot match, and says how to name one', () => {
    const model = modelOf(
      {
        '/people/{login}': {
          get: {
            operationId: 'getPerson',
            parameters: [pathParameter('login', 'string')],
            responses: answer(200, object({ handle: { type: 'string' } })),
          },
        },
      },
      {},
    );
    expect(reasonOf(model, 'getPerson')).toBe(
      'no property of the item of /people/{login} matches its parameter login (x-mock-key can name it)',
    );
  });

  it('makes no resource of a read alone (a lookup): its keys could not be learnt', () => {
    const model = modelOf(
      {
        '/accounts/{id}': {
          get: {
            operationId: 'getAccount',
            parameters: [pathParameter('id')],
            responses: answer(200, object({ id: { type: 'integer' } })),
          },
          delete: {
            operationId: 'deleteAccount',
            parameters: [pathParameter('id')],
            responses: answer(204),
          },
        },
      },
      {},
    );
    expect(model.resources).toEqual([]);
    expect(reasonOf(model, 'getAccount')).toBe(
      '/accounts/{id} has no list nor create: its items would be found only by keys no client can learn',
    );
    expect(reasonOf(model, 'deleteAccount')).toBe(reasonOf(model, 'getAccount'));
  });

  it('matches the key by the parameter name, after the collection name, or its last word', () => {
    // Each with its list: a read alone makes no resource (see below).
    const itemAt = (path: string, parameter: string, properties: Json): Json => ({
      [path.slice(0, path.lastIndexOf('/'))]: {
        get: {
          operationId: `list ${path}`,
          responses: answer(200, arrayOf(object(properties))),
        },
      },
      [path]: {
        get: {
          operationId: `get ${path}`,
          parameters: [pathParameter(parameter, 'string')],
          responses: answer(200, object(properties)),
        },
      },
    });
    const model = modelOf({
      ...itemAt('/users/{username}', 'username', {
        id: { type: 'integer' },
        username: { type: 'string' },
      }),
      ...itemAt('/attachments/{attachment_gid}', 'attachment_gid', { gid: { type: 'string' } }),
      ...itemAt('/floating_ips/{floating_ip}', 'floating_ip', { ip: { type: 'string' } }),
      ...itemAt('/tickets/{key}', 'key', { ticketId: { type: 'string' } }),
    });
    expect(model.resources.map((r) => [r.name, r.key.property])).toEqual([
      ['users', 'username'],
      ['attachments', 'gid'],
      ['floating_ips', 'ip'],
      ['tickets', 'ticketId'],
    ]);
  });
});

describe('inferResources: how bodies and answers carry the item', () => {
  const ARTICLE = object({
    slug: { type: 'string' },
    title: { type: 'string' },
    body: { type: 'string' },
  });

  it('reads an item wrapped in one property (RealWorld: {"article": {…}})', () => {
    const wrapped = object({ article: ref('Article') });
    const model = modelOf(
      {
        '/articles': {
          post: {
            operationId: 'createArticle',
            ...body(object({ article: ref('NewArticle') })),
            responses: answer(201, wrapped),
          },
          get: {
            operationId: 'listArticles',
            responses: answer(
              200,
              object({ articles: arrayOf(ref('Article')), articlesCount: { type: 'integer' } }),
            ),
          },
        },
        '/articles/{slug}': {
          parameters: [pathParameter('slug', 'string')],
          get: { operationId: 'getArticle', responses: answer(200, wrapped) },
          put: {
            operationId: 'updateArticle',
            ...body(object({ article: object({ title: { type: 'string' } }) })),
            responses: answer(200, wrapped),
          },
        },
      },
      {
        Article: ARTICLE,
        NewArticle: object({ title: { type: 'string' }, body: { type: 'string' } }),
      },
    );
    const articles = resourceOf(model, 'articles');
    expect(articles.itemSchema).toEqual(ref('Article'));
    expect(articles.key).toMatchObject({ property: 'slug', kind: 'string', fromClient: 'never' });
    expect(roleOf(articles, 'read').answerWrapper).toBe('article');
    expect(roleOf(articles, 'create')).toMatchObject({
      answerWrapper: 'article',
      bodyWrapper: 'article',
    });
    expect(roleOf(articles, 'replace')).toMatchObject({
      answerWrapper: 'article',
      bodyWrapper: 'article',
    });
    expect(roleOf(articles, 'list').list).toMatchObject({
      itemsProperty: 'articles',
      totalProperty: 'articlesCount',
    });
  });

  it('takes a create answering part of the item ({"id": …}), and its Location', () => {
    const model = modelOf(
      ordersPaths({
        collection: {
          post: {
            operationId: 'createOrder',
            ...body(ref('Order')),
            responses: answer(201, object({ id: { type: 'integer' } }), {
              headers: { location: { schema: { type: 'string' } } },
            }),
          },
        },
      }),
      { Order: ORDER },
    );
    expect(roleOf(resourceOf(model, 'orders'), 'create')).toMatchObject({
      answerProperties: ['id'],
      answerWrapper: undefined,
      location: true,
    });
  });

  it('knows the client key: required, optional, or never (absent or readOnly)', () => {
    const user = object({ username: { type: 'string' }, name: { type: 'string' } });
    const keyed = (create: Json, conflict: Json = {}) =>
      resourceOf(
        modelOf(
          {
            '/users': {
              post: {
                operationId: 'createUser',
                ...body(create),
                responses: { ...answer(201, ref('User')), ...answer(400), ...conflict },
              },
            },
            '/users/{username}': {
              get: {
                operationId: 'getUser',
                parameters: [pathParameter('username', 'string')],
                responses: answer(200, ref('User')),
              },
            },
          },
          { User: user },
        ),
        'users',
      );
    const required = keyed(object({ username: { type: 'string' } }, ['username']));
    expect(required.key.fromClient).toBe('required');
    // A taken client key: the 400 the create documents, where it documents no 409.
    expect(roleOf(required, 'create').conflict).toBe(400);
    const optional = keyed(ref('User'), answer(409));
    expect(optional.key.fromClient).toBe('optional');
    expect(roleOf(optional, 'create').conflict).toBe(409);
    expect(keyed(object({ name: { type: 'string' } })).key.fromClient).toBe('never');
    const readOnly = keyed(object({ username: { type: 'string', readOnly: true } }));
    expect(readOnly.key.fromClient).toBe('never');
    expect(roleOf(readOnly, 'create').conflict).toBeUndefined();
  });

  it('takes a PUT on the collection with the key in its body as the replace', () => {
    // The Swagger Petstore: PUT /pet replaces the pet its body names; POST /pet documents no
    // success (only a 405): no answer of a create could pass the contract, so it stays stateless
    // (the pets are reached by their list, findPetsByStatus there; a plain list here).
    const paths = (putBody: Json): Json => ({
      '/pet': {
        get: { operationId: 'listPets', responses: answer(200, arrayOf(ref('Pet'))) },
        post: { operationId: 'addPet', ...body(ref('Pet')), responses: answer(405) },
        put: {
          operationId: 'updatePet',
          ...body(putBody),
          responses: { ...answer(200, ref('Pet')), ...answer(404) },
        },
      },
      '/pet/{petId}': {
        get: {
          operationId: 'getPetById',
          parameters: [pathParameter('petId')],
          responses: answer(200, ref('Pet')),
        },
      },
    });
    const schemas = {
      Pet: object({ id: { type: 'integer', format: 'int64' }, name: { type: 'string' } }, ['name']),
    };
    const withPut = modelOf(paths(ref('Pet')), schemas);
    const pet = resourceOf(withPut, 'pet');
    expect(roleOf(pet, 'replace')).toMatchObject({
      operation: 'updatePet',
      status: 200,
      notFound: 404,
    });
    expect(pet.operations.map((op) => op.role)).not.toContain('create');
    expect(reasonOf(withPut, 'addPet')).toMatch(/documents no success answer/);
    const model = modelOf(paths(object({ name: { type: 'string' } })), schemas);
    expect(reasonOf(model, 'updatePet')).toBe(
      "PUT /pet is not a REST shape: a PUT on a collection path without the item's key id in its body",
    );
  });
});

describe('inferResources: lists', () => {
  const ITEM = object({
    id: { type: 'integer' },
    status: { type: 'string' },
    Name: { type: 'string' },
    expand: { type: 'string' },
    owner: object({ id: { type: 'integer' } }),
  });

  /** The list shape of `GET /items` answering `schema` with `parameters`. */
  function listOf(schema: Json, parameters: Json[] = []): ResourceOperation['list'] {
    const model = modelOf(
      {
        '/items': { get: { operationId: 'listItems', parameters, responses: answer(200, schema) } },
        '/items/{itemId}': {
          get: {
            operationId: 'getItem',
            parameters: [pathParameter('itemId')],
            responses: answer(200, ref('Item')),
          },
        },
      },
      { Item: ITEM },
    );
    const items = resourceOf(model, 'items');
    return roleOf(items, 'list').list;
  }

  it('reads a bare array and an envelope with its total and next cursor or link', () => {
    expect(listOf(arrayOf(ref('Item')))).toEqual({
      itemsProperty: undefined,
      totalProperty: undefined,
      next: undefined,
      filters: [],
      paging: undefined,
    });
    expect(
      listOf(
        object({
          data: arrayOf(ref('Item')),
          total_count: { type: 'integer' },
          next_cursor: { type: 'string' },
        }),
      ),
    ).toMatchObject({
      itemsProperty: 'data',
      totalProperty: 'total_count',
      next: { property: 'next_cursor', kind: 'cursor' },
    });
    expect(
      listOf(object({ results: arrayOf(ref('Item')), next: { type: 'string', format: 'uri' } })),
    ).toMatchObject({ itemsProperty: 'results', next: { property: 'next', kind: 'link' } });
  });

  it('finds a total and a next page inside the envelope: meta, links, HAL', () => {
    expect(
      listOf(
        object({
          items: arrayOf(ref('Item')),
          meta: object({ total: { type: 'integer' } }),
          links: object({ pages: object({ next: { type: 'string' } }) }),
        }),
      ),
    ).toMatchObject({
      totalProperty: 'meta.total',
      next: { property: 'links.pages.next', kind: 'link' },
    });
    expect(
      listOf(
        object({
          items: arrayOf(ref('Item')),
          _links: object({ next: object({ href: { type: 'string' } }) }),
        }),
      ),
    ).toMatchObject({ next: { property: '_links.next.href', kind: 'link' } });
  });

  it('is no list where the envelope has two arrays of the item, or another item', () => {
    const model = modelOf(
      {
        '/items': {
          get: {
            operationId: 'listItems',
            responses: answer(200, object({ a: arrayOf(ref('Item')), b: arrayOf(ref('Item')) })),
          },
        },
        '/items/{itemId}': {
          get: {
            operationId: 'getItem',
            parameters: [pathParameter('itemId')],
            responses: answer(200, ref('Item')),
          },
        },
      },
      { Item: ITEM },
    );
    expect(reasonOf(model, 'listItems')).toBe(
      'its answer is not a list of the item of /items/{itemId}',
    );
  });

  it('recognises paging parameters by name, with their bounds', () => {
    const int = (extra: Json = {}): Json => ({ type: 'integer', ...extra });
    expect(
      listOf(arrayOf(ref('Item')), [
        query('per_page', int({ default: 30, maximum: 100 })),
        query('page', int({ minimum: 0 })),
      ])?.paging,
    ).toEqual({
      size: { parameter: 'per_page', default: 30, maximum: 100 },
      start: { parameter: 'page', kind: 'page', first: 0 },
    });
    expect(listOf(arrayOf(ref('Item')), [query('pageNumber', int())])?.paging?.start).toEqual({
      parameter: 'pageNumber',
      kind: 'page',
      first: 1,
    });
    expect(listOf(arrayOf(ref('Item')), [query('skip', int())])?.paging?.start?.kind).toBe(
      'offset',
    );
    expect(
      listOf(arrayOf(ref('Item')), [query('page_token', { type: 'string' })])?.paging?.start?.kind,
    ).toBe('cursor');
    // An offset written as an opaque string (Asana's) is a cursor.
    expect(
      listOf(arrayOf(ref('Item')), [query('offset', { type: 'string' })])?.paging?.start?.kind,
    ).toBe('cursor');
    expect(
      listOf(arrayOf(ref('Item')), [query('starting_after', { type: 'string' })])?.paging?.start
        ?.kind,
    ).toBe('after');
    // A time selects by date: no paging.
    expect(
      listOf(arrayOf(ref('Item')), [query('since', { type: 'string', format: 'date-time' })])
        ?.paging,
    ).toBeUndefined();
    expect(
      listOf(arrayOf(ref('Item')), [query('maxResults', int({ default: 50 }))])?.paging?.size,
    ).toEqual({ parameter: 'maxResults', default: 50, maximum: undefined });
  });

  it('filters by parameters named as plain properties of the item, paging and shaping aside', () => {
    const list = listOf(arrayOf(ref('Item')), [
      query('status', arrayOf({ type: 'string' })),
      query('name', { type: 'string' }),
      query('owner', { type: 'string' }),
      query('expand', { type: 'string' }),
      query('limit', { type: 'integer' }),
      query('colour', { type: 'string' }),
    ]);
    expect(list?.filters).toEqual([
      { parameter: 'status', property: 'status' },
      { parameter: 'name', property: 'Name' },
    ]);
  });

  it('is no list where a required query parameter is neither a filter nor paging', () => {
    const model = modelOf(
      {
        '/items': {
          get: {
            operationId: 'searchItems',
            parameters: [query('q', { type: 'string' }, true)],
            responses: answer(200, arrayOf(ref('Item'))),
          },
        },
        '/items/{itemId}': {
          get: {
            operationId: 'getItem',
            parameters: [pathParameter('itemId')],
            responses: answer(200, ref('Item')),
          },
        },
      },
      { Item: ITEM },
    );
    expect(reasonOf(model, 'searchItems')).toBe(
      'its required query parameter q is neither a filter nor paging',
    );
  });

  it('takes a search path below the collection as another list', () => {
    // The Swagger Petstore's GET /pet/findByStatus?status=available&status=sold.
    const model = modelOf(
      {
        '/pet/findByStatus': {
          get: {
            operationId: 'findPetsByStatus',
            parameters: [query('status', arrayOf({ type: 'string' }), true)],
            responses: answer(200, arrayOf(ref('Pet'))),
          },
        },
        '/pet/findByTags': {
          get: {
            operationId: 'findPetsByTags',
            parameters: [query('tags', arrayOf({ type: 'string' }), true)],
            responses: answer(200, arrayOf(ref('Pet'))),
          },
        },
        '/pet/{petId}': {
          get: {
            operationId: 'getPetById',
            parameters: [pathParameter('petId')],
            responses: answer(200, ref('Pet')),
          },
        },
      },
      {
        Pet: object({
          id: { type: 'integer' },
          status: { type: 'string' },
          tags: arrayOf(object({ name: { type: 'string' } })),
        }),
      },
    );
    const list = roleOf(resourceOf(model, 'pet'), 'list');
    expect(list.operation).toBe('findPetsByStatus');
    expect(list.list?.filters).toEqual([{ parameter: 'status', property: 'status' }]);
    expect(reasonOf(model, 'findPetsByTags')).toBe(
      'as a list of /pet: its required query parameter tags is neither a filter nor paging',
    );
  });
});

describe('inferResources: nesting and names', () => {
  const USER = object({ id: { type: 'integer' }, name: { type: 'string' } });
  const ORDER_ITEM = object({ id: { type: 'integer' }, total: { type: 'number' } });
  const nested = (collection: string): Json => ({
    [collection]: {
      parameters: [pathParameter('userId')],
      get: {
        operationId: `list ${collection}`,
        responses: { ...answer(200, arrayOf(ref('Order'))), ...answer(404) },
      },
      post: {
        operationId: `create ${collection}`,
        ...body(ref('Order')),
        responses: { ...answer(201, ref('Order')), ...answer(404) },
      },
    },
  });

  it('nests a collection under the item path of its parent, an unknown parent a 404', () => {
    const model = modelOf(
      {
        '/users': {
          get: { operationId: 'listUsers', responses: answer(200, arrayOf(ref('User'))) },
        },
        '/users/{id}': {
          get: {
            operationId: 'getUser',
            parameters: [pathParameter('id')],
            responses: answer(200, ref('User')),
          },
        },
        ...nested('/users/{userId}/orders'),
      },
      { User: USER, Order: ORDER_ITEM },
    );
    const orders = resourceOf(model, 'users.orders');
    expect(orders.parent).toEqual({ resource: 'users', parameter: 'userId' });
    expect(roleOf(orders, 'list').notFound).toBe(404);
    expect(roleOf(orders, 'create').notFound).toBe(404);
    expect(resourceOf(model, 'users').parent).toBeUndefined();
  });

  it('nests by the parameter where the parent has no resource of its own', () => {
    const model = modelOf(nested('/shops/{userId}/orders'), { Order: ORDER_ITEM });
    expect(model.resources.map((r) => r.name)).toEqual(['shops.orders']);
    // No resource `shops`: the name it would have, each shop's orders kept apart.
    expect(resourceOf(model, 'shops.orders').parent).toEqual({
      resource: 'shops',
      parameter: 'userId',
    });
  });

  it('names resources uniquely, without format suffixes (Twilio: /Calls.json)', () => {
    const model = modelOf(
      {
        ...nested('/users/{userId}/orders'),
        ...nested('/users/orders'),
        '/Calls.json': {
          get: {
            operationId: 'ListCall',
            responses: answer(200, object({ calls: arrayOf(ref('Call')) })),
          },
        },
        '/Calls/{Sid}.json': {
          get: {
            operationId: 'FetchCall',
            parameters: [pathParameter('Sid', 'string')],
            responses: answer(200, ref('Call')),
          },
        },
      },
      { Order: ORDER_ITEM, Call: object({ sid: { type: 'string' } }) },
    );
    expect(model.resources.map((r) => r.name)).toEqual(['users.orders', 'users.orders-2', 'Calls']);
    expect(resourceOf(model, 'Calls').key).toMatchObject({ property: 'sid', parameter: 'Sid' });
  });
});

describe('inferResources: the packaged Pet Store', () => {
  it('finds pets: list, create and read, keyed by a server-made int64 id', () => {
    const contract = loadContract(defaultContractPath);
    const model = inferResources(contract.document, contract.operations, NO_HINTS);
    expect(model.stateless).toEqual([]);
    expect(model.resources.map((r) => r.name)).toEqual(['pets']);
    const pets = resourceOf(model, 'pets');
    expect(pets.key).toEqual({
      property: 'id',
      parameter: 'petId',
      kind: 'integer',
      format: 'int64',
      fromClient: 'never',
    });
    expect(roleOf(pets, 'list').list).toEqual({
      itemsProperty: undefined,
      totalProperty: undefined,
      next: undefined,
      filters: [{ parameter: 'status', property: 'status' }],
      paging: { size: { parameter: 'limit', default: 20, maximum: 100 }, start: undefined },
    });
    expect(roleOf(pets, 'create')).toMatchObject({ operation: 'createPet', status: 201 });
    expect(roleOf(pets, 'read')).toMatchObject({ operation: 'getPet', notFound: 404 });
  });
});
