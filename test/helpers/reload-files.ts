/**
 * A mock's files in a temporary folder, to edit while it runs: a copy of the packaged contract,
 * scenarios and fixtures, and the polling the reload tests wait with.
 */
import { copyFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  defaultContractPath,
  defaultFixturesPath,
  defaultScenariosDir,
} from '../../src/util/paths.js';

/** Where a copy's files are. */
export interface MockFiles {
  readonly contract: string;
  readonly scenariosDir: string;
  readonly fixtures: string;
}

/** Copies the packaged contract, scenarios and fixtures into `dir`. */
export function copyMockFiles(dir: string): MockFiles {
  const files: MockFiles = {
    contract: join(dir, 'openapi.yaml'),
    scenariosDir: join(dir, 'scenarios'),
    fixtures: join(dir, 'pets.json'),
  };
  copyFileSync(defaultContractPath, files.contract);
  copyFileSync(defaultFixturesPath, files.fixtures);
  mkdirSync(files.scenariosDir);
  // A copy of each built-in scenario as a user's own (read after them, and strictly), but
  // server-error: the Pet Store documents no 5xx, which a user's own file is refused for.
  for (const name of readdirSync(defaultScenariosDir)) {
    if (name === 'server-error.yaml') continue;
    copyFileSync(join(defaultScenariosDir, name), join(files.scenariosDir, name));
  }
  return files;
}

/** Rewrites a file with `edit` applied to its text; throws if the edit changed nothing. */
export function editFile(path: string, edit: (text: string) => string): void {
  const before = readFileSync(path, 'utf8');
  const after = edit(before);
  if (after === before) throw new Error(`the edit of ${path} changed nothing`);
  writeFileSync(path, after);
}

/** The packaged contract with one more documented answer of listPets: 503 with an Error body. */
export function with503(contract: string): string {
  const listPets401 =
    "        '401':\n          $ref: '#/components/responses/Unauthorized'\n    post:";
  if (!contract.includes(listPets401)) throw new Error('listPets has moved in openapi.yaml');
  return contract.replace(
    listPets401,
    "        '503':\n          description: Unavailable.\n          content:\n            application/json:\n              schema:\n                $ref: '#/components/schemas/Error'\n" +
      listPets401,
  );
}

/** How long a change may take to show before a test says so: a bound, not a goal. */
export const SHOW_LIMIT_MS = 3000;

/**
 * Asks `probe` again (every 25 ms) until it gives a value, and returns it; throws after
 * `limitMs` with the last thing it saw.
 */
export async function pollUntil<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  limitMs = SHOW_LIMIT_MS,
): Promise<T> {
  const deadline = Date.now() + limitMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`${what}: not seen within ${String(limitMs)} ms (last: ${String(last)})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
