/**
 * Helpers of the "bring your own contract" tests (test/integration/own-contract-*.test.ts): their
 * fixture contracts live in test/fixtures/own/, each small and written for one behaviour.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadContract, type Contract } from '../../src/contract/load-contract.js';
import { loadScenarios } from '../../src/contract/load-scenarios.js';
import type { ResourceModel } from '../../src/contract/resource-model.js';
import { FileError } from '../../src/util/located-file.js';
import { defaultScenariosDir } from '../../src/util/paths.js';
import { createTestApp, type TestApp, type TestAppOptions } from './test-app.js';

/** The folder of the own-contract fixtures. */
export const OWN_FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'own');

/** createApp's `resources`, empty: an app given it answers every operation from the contract. */
export const NO_RESOURCES: ResourceModel = { resources: [], stateless: [] };

/** The path of a fixture under test/fixtures/own/. */
export function ownPath(...parts: string[]): string {
  return join(OWN_FIXTURES, ...parts);
}

/** A fixture contract loaded as `--contract` loads a user's: checked whole. */
export function loadOwn(...parts: string[]): Contract {
  return loadContract(ownPath(...parts), { checked: true });
}

/**
 * A fresh app over a user's contract, with the built-in scenarios fitted to it (as a start with
 * --contract has them), unless the options give scenarios of their own.
 */
export async function ownApp(contract: Contract, options: TestAppOptions = {}): Promise<TestApp> {
  const scenarios = loadScenarios(defaultScenariosDir, contract, { builtIn: true });
  return createTestApp({ contract, scenarios, ...options });
}

/** The FileError a call throws (the test fails if it throws nothing, or something else). */
export function fileErrorOf(load: () => unknown): FileError {
  try {
    load();
  } catch (error) {
    if (error instanceof FileError) return error;
    throw error;
  }
  throw new Error('nothing was refused');
}

/**
 * Where `needle` is first written in a file, as FileError positions count (line and column from
 * 1): the place a message about that value must name.
 */
export function placeOf(path: string, needle: string): { line: number; column: number } {
  const lines = readFileSync(path, 'utf8').split('\n');
  const line = lines.findIndex((text) => text.includes(needle));
  if (line < 0) throw new Error(`${needle} is not written in ${path}`);
  return { line: line + 1, column: (lines[line] ?? '').indexOf(needle) + 1 };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Narrows a body to an object, or fails the test saying what it was. */
export function record(value: unknown): Record<string, unknown> {
  if (!isRecord(value)) throw new Error(`not an object: ${JSON.stringify(value)}`);
  return value;
}

/** Narrows a body to a list, or fails the test saying what it was. */
export function list(value: unknown): unknown[] {
  if (!Array.isArray(value)) throw new Error(`not a list: ${JSON.stringify(value)}`);
  return value;
}

/** The log lines at warn level (pino's 40). */
export function warnings(logs: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  return logs.filter((line) => line.level === 40);
}

/** The log lines at error level (pino's 50) and above. */
export function errors(logs: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  return logs.filter((line) => typeof line.level === 'number' && line.level >= 50);
}
