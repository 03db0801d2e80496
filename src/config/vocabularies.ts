import { extname } from 'node:path';

// The words some settings take. They are defined here, below every layer that acts on them, so
// that config/ imports nothing above util/ and every layer can take its settings from the Config
// by type; the pet, the coverage report and the contract's answers import them from here.

/** The values of the contract's PetStatus enumeration (--default-status). */
export const PET_STATUSES = ['available', 'pending', 'sold'] as const;
export type PetStatus = (typeof PET_STATUSES)[number];

/** The ways a coverage report is written out (--coverage-report's file, the admin API). */
export const COVERAGE_FORMATS = ['json', 'markdown', 'junit', 'text'] as const;
export type CoverageFormat = (typeof COVERAGE_FORMATS)[number];

const FILE_FORMATS: Readonly<Record<string, CoverageFormat>> = {
  '.json': 'json',
  '.md': 'markdown',
  '.xml': 'junit',
};

/** The format of a report file, from its extension (.json, .md, .xml); undefined for another. */
export function coverageFormatOfFile(path: string): CoverageFormat | undefined {
  return FILE_FORMATS[extname(path).toLowerCase()];
}

/** What to do with a contract's example that breaks its own schema: answer generated data, or it. */
export const BROKEN_EXAMPLES = ['generate', 'serve'] as const;

/** Whether the contract's resources keep state (infer), or every operation is answered from it. */
export const RESOURCE_MODES = ['infer', 'off'] as const;
export type ResourceMode = (typeof RESOURCE_MODES)[number];
export type BrokenExamples = (typeof BROKEN_EXAMPLES)[number];
