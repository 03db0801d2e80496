import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The nearest folder at or above `from` holding package.json and openapi.yaml: the package root,
 * wherever the build put this module (dist/util/ for import, dist/ inside the CommonJS bundle).
 */
function findPackageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'openapi.yaml'))) return dir;
    if (dirname(dir) === dir) throw new Error(`petstore-mock: no package root above ${from}`);
  }
}

/** The package root: openapi.yaml, fixtures/ and scenarios/ sit there in a clone and in an install. */
export const packageRoot = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

/** The pet API's contract document shipped with the package. */
export const defaultContractPath = join(packageRoot, 'openapi.yaml');

/** The fixture file used when neither --fixtures nor --seed is given. */
export const defaultFixturesPath = join(packageRoot, 'fixtures', 'pets.json');

/** The admin API's own OpenAPI document. */
export const adminContractPath = join(packageRoot, 'admin-openapi.yaml');

/** The scenarios shipped with the package. */
export const defaultScenariosDir = join(packageRoot, 'scenarios');

/** The QA console's built files (HTML, script, style), served at /__admin/ui. */
export const consoleDir = join(packageRoot, 'dist', 'console');
