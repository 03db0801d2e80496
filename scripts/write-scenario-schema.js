/**
 * npm run scenarios:schema: writes scenario.schema.json from the rule kinds table
 * (src/contract/rule-kinds/), as built in dist/. test/unit/scenario-schema.test.ts fails when the
 * file and the table differ.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scenarioFileSchema } from '../dist/contract/scenario-schema.js';

writeFileSync(
  join(import.meta.dirname, '..', 'scenario.schema.json'),
  `${JSON.stringify(scenarioFileSchema(), null, 2)}\n`,
);
