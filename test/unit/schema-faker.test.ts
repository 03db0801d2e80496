import { Faker, base, en } from '@faker-js/faker';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { createAnswerCheck } from '../../src/contract/answer-check.js';
import { ContractAnswerError, createContractAnswers } from '../../src/contract/contract-answers.js';
import type { OpenApiDocument } from '../../src/contract/openapi-document.js';
import { createOperationIndex, type Operation } from '../../src/contract/operation-index.js';
import { SchemaFaker } from '../../src/contract/schema-faker.js';
import { SchemaError } from '../../src/contract/schema-refs.js';
import { withoutWriteOnly } from '../../src/contract/write-only.js';

const SEEDS = Array.from({ length: 25 }, (_, i) => i + 1);

function documentOf(schemas: Record<string, unknown>, openapi = '3.0.3'): OpenApiDocument {
  return { openapi, info: { title: 't', version: '1' }, paths: {}, components: { schemas } };
}

/** A value for `#/components/schemas/<name>` from a faker seeded with `seed`. */
function fake(document: OpenApiDocument, name: string, seed: number): unknown {
  const check = createAnswerCheck(document);
  const faker = new Faker({ locale: [en, base] });
  faker.seed(seed);
  faker.setDefaultRefDate(new Date('2026-01-01T00:00:00Z'));
  const writer = new SchemaFaker(document, faker, (s, v) => check(s, v).length === 0);
  return writer.fake({ $ref: `#/components/schemas/${name}` });
}

/** The problems of values generated with every seed, as the answer check finds them. */
function problemsOf(document: OpenApiDocument, name: string): string[] {
  const check = createAnswerCheck(document);
  return SEEDS.flatMap((seed) => {
    const value = fake(document, name, seed);
    return check({ $ref: `#/components/schemas/${name}` }, value).map(
      (problem) => `seed ${seed}: ${problem} in ${JSON.stringify(value)}`,
    );
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const KEYWORDS: Record<string, unknown> = {
  Formats: {
    type: 'object',
    required: [
      'dateTime',
      'date',
      'time',
      'email',
      'uri',
      'uuid',
      'hostname',
      'ipv4',
      'ipv6',
      'byte',
      'small',
      'big',
    ],
    properties: {
      dateTime: { type: 'string', format: 'date-time' },
      date: { type: 'string', format: 'date' },
      time: { type: 'string', format: 'time' },
      email: { type: 'string', format: 'email' },
      uri: { type: 'string', format: 'uri' },
      uuid: { type: 'string', format: 'uuid' },
      hostname: { type: 'string', format: 'hostname' },
      ipv4: { type: 'string', format: 'ipv4' },
      ipv6: { type: 'string', format: 'ipv6' },
      byte: { type: 'string', format: 'byte' },
      small: { type: 'integer', format: 'int32', minimum: 2147483600 },
      big: { type: 'integer', format: 'int64', minimum: 9007199254740000 },
    },
  },
  Numbers: {
    type: 'object',
    required: ['a', 'b', 'c', 'd', 'e', 'f', 'g'],
    properties: {
      a: { type: 'integer', minimum: 5, maximum: 6, exclusiveMaximum: true },
      b: { type: 'number', minimum: 0, maximum: 0.02, exclusiveMinimum: true },
      c: { type: 'number', multipleOf: 0.01, minimum: 0.05, maximum: 0.09 },
      d: { type: 'number', multipleOf: 0.1, minimum: 0.2, maximum: 0.4 },
      e: { type: 'integer', multipleOf: 7, minimum: -20, maximum: -1 },
      f: { type: 'integer', maximum: -5 },
      g: { type: 'number', format: 'float', minimum: -1, maximum: 1 },
    },
  },
  Strings: {
    type: 'object',
    required: ['short', 'long', 'code', 'choice', 'mail', 'notDigits', 'escaped'],
    properties: {
      short: { type: 'string', minLength: 1, maxLength: 2 },
      long: { type: 'string', minLength: 50, maxLength: 55 },
      code: { type: 'string', pattern: '^[A-Z]{2}\\d{3}$' },
      choice: { type: 'string', pattern: '^(foo|bar)-[a-z]+(_v\\d{1,2})?$' },
      mail: { type: 'string', pattern: '\\w+@\\w+\\.com', maxLength: 30 },
      notDigits: { type: 'string', pattern: '^[^0-9]{3}$' },
      escaped: { type: 'string', pattern: '^\\$\\d+\\.\\d{2}\\s?(?:EUR|USD)$' },
    },
  },
  Arrays: {
    type: 'object',
    required: ['few', 'unique', 'empty', 'exact'],
    properties: {
      few: { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 3 },
      unique: {
        type: 'array',
        uniqueItems: true,
        minItems: 3,
        items: { type: 'integer', minimum: 1, maximum: 3 },
      },
      empty: { type: 'array', maxItems: 0, items: { type: 'string' } },
      exact: {
        type: 'array',
        minItems: 2,
        maxItems: 2,
        uniqueItems: true,
        items: { type: 'object', properties: { flag: { type: 'boolean' } } },
      },
    },
  },
  Objects: {
    type: 'object',
    required: ['closed', 'map', 'sized'],
    properties: {
      closed: {
        type: 'object',
        additionalProperties: false,
        properties: { a: { type: 'string' }, b: { type: 'integer' } },
      },
      map: { type: 'object', additionalProperties: { type: 'integer', minimum: 0 } },
      sized: {
        type: 'object',
        minProperties: 3,
        maxProperties: 3,
        properties: { one: { type: 'string' } },
      },
      empty: { type: 'object' },
    },
  },
  Nullable: {
    type: 'object',
    required: ['maybe', 'choice'],
    properties: {
      maybe: { type: 'string', nullable: true },
      choice: { type: 'string', enum: ['a', 'b'], nullable: true },
      never: { type: 'string', nullable: true, enum: [null] },
    },
  },
  Combined: {
    allOf: [
      { $ref: '#/components/schemas/Base' },
      {
        type: 'object',
        required: ['size'],
        properties: { size: { type: 'integer', minimum: 3 }, kind: { enum: ['x', 'y'] } },
      },
      { properties: { size: { maximum: 4 }, kind: { not: { const: 'x' } } } },
    ],
  },
  Base: {
    type: 'object',
    required: ['id', 'name'],
    properties: {
      id: { type: 'integer', format: 'int64', readOnly: true },
      name: { type: 'string' },
      secret: { type: 'string', writeOnly: true },
    },
  },
  Either: {
    type: 'object',
    required: ['any', 'one'],
    properties: {
      any: {
        anyOf: [
          { type: 'string', format: 'email' },
          { type: 'integer', minimum: 1 },
        ],
      },
      one: {
        oneOf: [
          { type: 'object', properties: { a: { type: 'string' } } },
          { type: 'object', properties: { b: { type: 'integer' } } },
        ],
      },
    },
  },
  Pet: {
    oneOf: [{ $ref: '#/components/schemas/Dog' }, { $ref: '#/components/schemas/Cat' }],
    discriminator: { propertyName: 'petType', mapping: { doggo: 'Dog' } },
  },
  Dog: {
    type: 'object',
    required: ['petType', 'name'],
    properties: {
      petType: { type: 'string' },
      name: { type: 'string' },
      barks: { type: 'boolean' },
    },
  },
  Cat: {
    type: 'object',
    required: ['petType', 'name'],
    properties: {
      petType: { type: 'string' },
      name: { type: 'string' },
      purrs: { type: 'boolean' },
    },
  },
  Tree: {
    type: 'object',
    required: ['label', 'children'],
    properties: {
      label: { type: 'string' },
      children: { type: 'array', items: { $ref: '#/components/schemas/Tree' } },
      parent: { allOf: [{ $ref: '#/components/schemas/Tree' }] },
    },
  },
  Documented: {
    type: 'object',
    required: ['withExample', 'withDefault', 'badExample'],
    properties: {
      withExample: { type: 'string', example: 'from the example' },
      withDefault: { type: 'integer', default: 42 },
      badExample: { type: 'integer', minimum: 10, example: 3 },
    },
  },
};

describe('SchemaFaker: generated values keep to every supported keyword', () => {
  const document = documentOf(KEYWORDS);

  it.each(Object.keys(KEYWORDS))('%s', (name) => {
    expect(problemsOf(document, name)).toEqual([]);
  });

  it('the same seed gives the same value; another seed another', () => {
    expect(fake(document, 'Formats', 3)).toEqual(fake(document, 'Formats', 3));
    expect(fake(document, 'Formats', 3)).not.toEqual(fake(document, 'Formats', 4));
  });

  it('answers readOnly properties, never writeOnly ones', () => {
    for (const seed of SEEDS) {
      const value = fake(document, 'Combined', seed);
      expect(isRecord(value) && typeof value.id).toBe('number');
      expect(value).not.toHaveProperty('secret');
    }
  });

  it('prefers a property example or default that keeps to the schema', () => {
    const value = fake(document, 'Documented', 1);
    expect(value).toEqual(
      expect.objectContaining({ withExample: 'from the example', withDefault: 42 }) as unknown,
    );
    expect(isRecord(value) && value.badExample).not.toBe(3);
  });

  it("with a discriminator, sets a mapped branch's key (the mapping's, or the schema name)", () => {
    const types = new Set(
      SEEDS.map((seed) => {
        const value = fake(document, 'Pet', seed);
        return isRecord(value) ? value.petType : undefined;
      }),
    );
    expect(types).toEqual(new Set(['doggo', 'Cat']));
  });

  it('bounds a recursive schema', () => {
    const depthOf = (value: unknown): number =>
      isRecord(value) && Array.isArray(value.children)
        ? 1 + Math.max(0, ...value.children.map(depthOf))
        : 0;
    for (const seed of SEEDS) expect(depthOf(fake(document, 'Tree', seed))).toBeLessThan(6);
  });
});

describe('SchemaFaker: OpenAPI 3.1 schemas', () => {
  const schemas = {
    Item: {
      type: 'object',
      required: ['name', 'note', 'kind', 'score', 'tags', 'pair'],
      properties: {
        name: { type: 'string', examples: ['first example'] },
        note: { type: ['string', 'null'], maxLength: 5 },
        kind: { const: 'item' },
        score: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
        tags: { type: 'array', items: { type: ['integer', 'null'] }, minItems: 1 },
        pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'boolean' }] },
      },
    },
  };
  const document = documentOf(schemas, '3.1.0');

  it('keeps to type arrays, const, numeric exclusive bounds and prefixItems (checked by a 2020-12 Ajv)', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const validate = ajv.compile({ $defs: schemas, $ref: '#/$defs/Item' });
    for (const seed of SEEDS) {
      const value = fake(document, 'Item', seed);
      expect([validate(value), validate.errors]).toEqual([true, null]);
      expect(value).toEqual(
        expect.objectContaining({ name: 'first example', kind: 'item' }) as unknown,
      );
    }
  });
});

describe('SchemaFaker: a schema that cannot be kept to fails loudly, naming the place', () => {
  const cases: [string, unknown, RegExp][] = [
    ['bounds that exclude every value', { type: 'integer', minimum: 5, maximum: 4 }, /bounds/],
    [
      'a required property that additionalProperties: false forbids',
      {
        type: 'object',
        required: ['b'],
        additionalProperties: false,
        properties: { a: { type: 'string' } },
      },
      /\/response\/b: is required/,
    ],
    [
      'a recursion required at every level',
      { $ref: '#/components/schemas/Loop' },
      /nests deeper than/,
    ],
    [
      'a pattern with a lookahead',
      { type: 'string', pattern: '^(?=.*\\d)[a-z\\d]{8}$' },
      /lookarounds are not supported/,
    ],
    [
      'oneOf branches no value tells apart',
      { oneOf: [{ type: 'string' }, { type: 'string', minLength: 0 }] },
      /oneOf/,
    ],
    ['an enum of no value of its type', { type: 'integer', enum: ['a'] }, /enum/],
    ['a reference to nothing', { $ref: '#/components/schemas/Missing' }, /names nothing/],
  ];
  const document = documentOf({
    Loop: {
      type: 'object',
      required: ['next'],
      properties: { next: { $ref: '#/components/schemas/Loop' } },
    },
  });

  it.each(cases)('%s', (_what, schema, message) => {
    const check = createAnswerCheck(document);
    const faker = new Faker({ locale: [en, base] });
    faker.seed(1);
    const writer = new SchemaFaker(document, faker, (s, v) => check(s, v).length === 0);
    expect(() => writer.fake(schema)).toThrow(SchemaError);
    expect(() => writer.fake(schema)).toThrow(message);
  });
});

describe('withoutWriteOnly', () => {
  const document = documentOf({
    Account: {
      allOf: [
        {
          type: 'object',
          properties: { id: { type: 'integer' }, password: { type: 'string', writeOnly: true } },
        },
        {
          properties: {
            friends: { type: 'array', items: { $ref: '#/components/schemas/Account' } },
            extra: { type: 'object', additionalProperties: { $ref: '#/components/schemas/Pin' } },
          },
        },
      ],
    },
    Pin: {
      type: 'object',
      properties: { pin: { type: 'string', writeOnly: true }, label: { type: 'string' } },
    },
  });

  it('drops writeOnly properties at any depth, keeps the rest (int64 bigints included)', () => {
    const big = 2n ** 62n;
    const value = {
      id: big,
      password: 'p',
      friends: [{ id: 2, password: 'q', friends: [] }],
      extra: { home: { pin: '1234', label: 'home' } },
    };
    expect(withoutWriteOnly(document, { $ref: '#/components/schemas/Account' }, value)).toEqual({
      id: big,
      friends: [{ id: 2, friends: [] }],
      extra: { home: { label: 'home' } },
    });
    expect(value.password).toBe('p');
  });
});

describe('createContractAnswers', () => {
  function operationOf(document: OpenApiDocument, id: string): Operation {
    const op = createOperationIndex(document).byName(id);
    if (!op) throw new Error(`no ${id}`);
    return op;
  }
  const document: OpenApiDocument = {
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    servers: [{ url: '/v1' }],
    paths: {
      '/broken': {
        get: {
          operationId: 'broken',
          responses: {
            '200': {
              description: 'x',
              content: {
                'application/json': { schema: { type: 'integer', minimum: 3, maximum: 2 } },
              },
            },
          },
        },
      },
      '/text': {
        get: {
          operationId: 'text',
          responses: {
            '200': { description: 'x', content: { 'text/plain': { schema: { type: 'string' } } } },
          },
        },
      },
      '/vendor': {
        get: {
          operationId: 'vendor',
          responses: {
            '201': { description: 'x', content: { 'application/vnd.shop+json': { example: [1] } } },
            '200': {
              description: 'x',
              content: { 'application/json': { schema: { type: 'boolean' } } },
            },
          },
        },
      },
    },
  };
  const answers = createContractAnswers(
    { document, schemaDocument: document, operations: createOperationIndex(document) },
    { seed: 1 },
  );

  it('a schema it cannot keep to is a ContractAnswerError (500) naming the operation and place', async () => {
    const answer = answers.answer(operationOf(document, 'broken'));
    await expect(answer).rejects.toThrow(ContractAnswerError);
    await expect(answers.answer(operationOf(document, 'broken'))).rejects.toThrow(
      /cannot answer broken from the contract: \/response: no integer/,
    );
  });

  it('answers text in the media type documented: a string generated from its schema', async () => {
    expect(await answers.answer(operationOf(document, 'text'))).toEqual({
      status: 200,
      mediaType: 'text/plain',
      body: expect.any(String) as unknown,
      headers: {},
      source: 'generated',
      schema: true,
    });
  });

  it('takes the lowest 2xx, from a +json media type too', async () => {
    expect(await answers.answer(operationOf(document, 'vendor'), { status: 201 })).toEqual({
      status: 201,
      mediaType: 'application/vnd.shop+json',
      body: [1],
      headers: {},
      source: 'example',
      schema: false,
    });
    expect(await answers.answer(operationOf(document, 'vendor'))).toEqual({
      status: 200,
      mediaType: 'application/json',
      body: expect.any(Boolean) as unknown,
      headers: {},
      source: 'generated',
      schema: true,
    });
  });
});
