import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** The package root: openapi.yaml, fixtures/ and scenarios/ sit there in a clone and in an install. */
export const packageRoot = fileURLToPath(new URL('..', import.meta.url));

/** The pet API's contract document shipped with the package. */
export const defaultContractPath = join(packageRoot, 'openapi.yaml');

/** The fixture file used when neither --fixtures nor --seed is given. */
export const defaultFixturesPath = join(packageRoot, 'fixtures', 'pets.json');

/** The admin API's own OpenAPI document. */
export const adminContractPath = join(packageRoot, 'admin-openapi.yaml');

/** The scenarios shipped with the package. */
export const defaultScenariosDir = join(packageRoot, 'scenarios');
