import { isRecord } from './is-record.js';

/** Whether a file system error says the path does not exist (ENOENT). */
export function isMissingFile(error: unknown): boolean {
  return isRecord(error) && error.code === 'ENOENT';
}
