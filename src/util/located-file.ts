import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import { isRecord } from './is-record.js';

function isYamlModule(value: unknown): value is typeof Yaml {
  return isRecord(value) && typeof value.parseDocument === 'function';
}

/** The yaml package, loaded when a text is first parsed with positions (not at every start). */
function yaml(): typeof Yaml {
  const loaded: unknown = createRequire(import.meta.url)('yaml');
  if (!isYamlModule(loaded)) throw new Error('the yaml package did not load');
  return loaded;
}

/** A line and column in a file, both from 1. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/** A file the mock cannot use, and where in it: its message reads `file:line:column: reason`. */
export class FileError extends Error {
  override name = 'FileError';

  constructor(
    readonly file: string,
    readonly reason: string,
    readonly position?: Position,
  ) {
    super(`${file}${position ? `:${position.line}:${position.column}` : ''}: ${reason}`);
  }
}

/** A key or index on the way down a parsed value, as JSON pointers and Ajv's paths name them. */
export type PathStep = string | number;

/** A YAML (or JSON) text, parsed, that can say where each of its values is written. */
export interface LocatedText {
  readonly value: unknown;
  /** Where the value at `path` is written; for a path that goes on past what is written, where its deepest written part is. */
  positionOf(path: readonly PathStep[]): Position | undefined;
}

/**
 * Parses a YAML text (JSON is YAML too) keeping where each value came from, for messages that
 * name a line and a column. A syntax error is a FileError at its place.
 */
export function parseLocated(file: string, text: string): LocatedText {
  const { LineCounter, parseDocument, isNode } = yaml();
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines });
  const [error] = document.errors;
  if (error) {
    const at = error.linePos?.[0];
    // The first line of the parser's message, without the place it appends (ours says it).
    const reason = (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
    throw new FileError(file, reason || 'not valid YAML', at && { line: at.line, column: at.col });
  }
  return {
    value: document.toJS({ maxAliasCount: 100 }),
    positionOf: (path) => {
      for (let depth = path.length; depth >= 0; depth -= 1) {
        const node: unknown = document.getIn(path.slice(0, depth), true);
        if (isNode(node) && node.range) {
          const { line, col } = lines.linePos(node.range[0]);
          return { line, column: col };
        }
      }
      return undefined;
    },
  };
}
