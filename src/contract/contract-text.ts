import { readFileSync } from 'node:fs';
import { errorMessage } from '../util/error-message.js';
import { FileError, parseLocated, type PathStep, type Position } from '../util/located-file.js';
import { parseYaml } from '../util/parse-yaml.js';

/** A contract file (the document, or a file its `$ref`s name), parsed, able to say where a value is. */
export interface ContractFile {
  readonly path: string;
  readonly value: unknown;
  /** Where the value at `steps` is written (the file is parsed again with positions on first use). */
  positionOf(steps: readonly PathStep[]): Position | undefined;
}

/**
 * Parses a contract's text: as JSON first (a large vendor contract parses in milliseconds), else
 * as YAML. Positions are read only when a message needs one, by parsing the text
 * again with them; a syntax error is a FileError at its line and column.
 */
export function parseContractText(path: string, text: string): ContractFile {
  let located: ReturnType<typeof parseLocated> | undefined;
  const locatedText = (): ReturnType<typeof parseLocated> => (located ??= parseLocated(path, text));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    try {
      value = parseYaml(text);
    } catch (error) {
      // The located parser says where; a text it reads without error is refused for the first reason.
      locatedText();
      throw new FileError(path, `not YAML or JSON: ${errorMessage(error).split('\n')[0] ?? ''}`);
    }
  }
  return {
    path,
    value,
    positionOf: (steps) => {
      try {
        return locatedText().positionOf(steps);
      } catch (error) {
        return error instanceof FileError ? error.position : undefined;
      }
    },
  };
}

/** Reads and parses a contract file; a file that cannot be read is a FileError naming it. */
export function readContractFile(path: string, what = 'the contract'): ContractFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new FileError(path, `cannot read ${what}: ${errorMessage(error)}`);
  }
  return parseContractText(path, text);
}
