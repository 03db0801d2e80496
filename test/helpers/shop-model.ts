/**
 * What inference must find in test/fixtures/own/resources/shop.yaml, written by hand: the engine's
 * tests (test/integration/resources.test.ts) and the console's (test/browser/) serve it.
 */
import type {
  ResourceModel,
  ResourceOperation,
  ResourceRole,
} from '../../src/contract/resource-model.js';

/** An operation of the model with what most operations share. */
function op(
  role: ResourceRole,
  operation: string,
  status: number,
  more: Partial<ResourceOperation> = {},
): ResourceOperation {
  return {
    role,
    operation,
    status,
    answersBody: status !== 204,
    answerWrapper: undefined,
    bodyWrapper: undefined,
    answerProperties: undefined,
    location: false,
    notFound: undefined,
    conflict: undefined,
    list: undefined,
    merge: undefined,
    ...more,
  };
}

/** The resources of shop.yaml: users, their orders, articles. */
export const SHOP_MODEL: ResourceModel = {
  resources: [
    {
      name: 'users',
      collectionPath: '/users',
      itemPath: '/users/{username}',
      parent: undefined,
      key: {
        property: 'username',
        parameter: 'username',
        kind: 'string',
        format: undefined,
        fromClient: 'required',
      },
      itemSchema: { $ref: '#/components/schemas/User' },
      writeOnly: ['password'],
      hints: [],
      operations: [
        op('list', 'listUsers', 200, {
          list: {
            itemsProperty: 'data',
            totalProperty: 'total',
            next: { property: 'next', kind: 'link' },
            filters: [{ parameter: 'role', property: 'role' }],
            paging: {
              size: { parameter: 'limit', default: 2, maximum: 50 },
              start: { parameter: 'offset', kind: 'offset', first: 0 },
            },
          },
        }),
        op('create', 'createUser', 201, { conflict: 409 }),
        op('read', 'getUser', 200, { notFound: 404 }),
        op('replace', 'replaceUser', 200, { notFound: 404 }),
        op('update', 'updateUser', 200, { notFound: 404, merge: 'merge-patch' }),
        op('delete', 'deleteUser', 204, { notFound: 404 }),
      ],
    },
    {
      name: 'users.orders',
      collectionPath: '/users/{username}/orders',
      itemPath: '/users/{username}/orders/{orderId}',
      parent: { resource: 'users', parameter: 'username' },
      key: {
        property: 'id',
        parameter: 'orderId',
        kind: 'integer',
        format: 'int64',
        fromClient: 'never',
      },
      itemSchema: { $ref: '#/components/schemas/Order' },
      writeOnly: [],
      hints: [],
      operations: [
        op('list', 'listOrders', 200, {
          notFound: 404,
          list: {
            itemsProperty: undefined,
            totalProperty: undefined,
            next: undefined,
            filters: [],
            paging: {
              size: { parameter: 'per_page', default: undefined, maximum: 10 },
              start: { parameter: 'page', kind: 'page', first: 1 },
            },
          },
        }),
        op('create', 'createOrder', 201, {
          notFound: 404,
          location: true,
          answerProperties: ['id'],
        }),
        op('read', 'getOrder', 200, { notFound: 404 }),
      ],
    },
    {
      name: 'articles',
      collectionPath: '/articles',
      itemPath: '/articles/{slug}',
      parent: undefined,
      key: {
        property: 'slug',
        parameter: 'slug',
        kind: 'string',
        format: undefined,
        fromClient: 'never',
      },
      itemSchema: { $ref: '#/components/schemas/Article' },
      writeOnly: [],
      hints: [],
      operations: [
        op('create', 'createArticle', 201, { answerWrapper: 'article', bodyWrapper: 'article' }),
        op('read', 'getArticle', 200, { notFound: 404, answerWrapper: 'article' }),
      ],
    },
  ],
  stateless: [],
};
