/**
 * npm run docs:options: writes docs/options.md from the settings table (src/config/settings.ts),
 * as built in dist/. test/unit/settings-table.test.ts fails when the file and the table differ.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { optionsMarkdown } from '../dist/config/help.js';

writeFileSync(join(import.meta.dirname, '..', 'docs', 'options.md'), optionsMarkdown());
