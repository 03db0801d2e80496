import type { Response } from 'supertest';
import type { Pet } from '../../src/state/pet.js';
import { contract } from './test-app.js';

/** The contract's Error body, as tests read it back. */
export interface ErrorBody {
  code: string;
  message: string;
  status: number;
}

const checkError = contract.checkSchema('Error');
const checkPet = contract.checkSchema('Pet');

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Narrows a response body to an Error body with exactly the three fields. */
export function isErrorBody(value: unknown): value is ErrorBody {
  return (
    isRecord(value) &&
    Object.keys(value).sort().join(',') === 'code,message,status' &&
    typeof value.code === 'string' &&
    typeof value.message === 'string' &&
    typeof value.status === 'number'
  );
}

/**
 * Asserts an error response: the HTTP status, a JSON `{code, message, status}` body with `status`
 * equal to the HTTP status and the exact code, a non-empty message, no HTML and no stack trace.
 */
export function expectError(res: Response, status: number, code: string): ErrorBody {
  if (res.status !== status) {
    throw new Error(`expected HTTP ${status}, got ${res.status}: ${res.text.slice(0, 500)}`);
  }
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.text).not.toMatch(/<html|<!doctype|<pre>/i);
  expect(res.text).not.toMatch(/\n\s+at |\s{4}at /);
  const body: unknown = res.body;
  expect(checkError(body)).toEqual([]);
  if (!isErrorBody(body)) throw new Error(`not an Error body: ${res.text}`);
  expect(Object.keys(body).sort()).toEqual(['code', 'message', 'status']);
  expect({ code: body.code, status: body.status }).toEqual({ code, status });
  expect(body.message.trim()).not.toBe('');
  return body;
}

/** Narrows a response body to a Pet, checking it against the contract's Pet schema. */
export function asPet(value: unknown): Pet {
  expect(checkPet(value)).toEqual([]);
  if (
    !isRecord(value) ||
    typeof value.id !== 'number' ||
    typeof value.name !== 'string' ||
    typeof value.categoryId !== 'number'
  ) {
    throw new Error(`not a Pet: ${JSON.stringify(value)}`);
  }
  const pet: Pet = { id: value.id, name: value.name, categoryId: value.categoryId };
  if (value.status === 'available' || value.status === 'pending' || value.status === 'sold') {
    pet.status = value.status;
  }
  return pet;
}

/** Narrows a response body to a list of Pets. */
export function asPets(value: unknown): Pet[] {
  if (!Array.isArray(value)) throw new Error(`not an array: ${JSON.stringify(value)}`);
  return value.map((item: unknown) => asPet(item));
}

/** A small store of the test's own: ids 1..count, every status represented. */
export function somePets(count: number): Pet[] {
  const statuses = ['available', 'pending', 'sold'] as const;
  return Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    name: `pet-${i + 1}`,
    categoryId: (i % 4) + 1,
    status: statuses[i % 3],
  }));
}
