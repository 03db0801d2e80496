import { loadContract, type Contract } from '../contract/load-contract.js';
import { digestOfFiles } from '../util/file-digest.js';

/** A contract read in this process, and the digest of the files it was read from. */
export interface KeptContract {
  readonly contract: Contract;
  readonly digest: string;
}

/** How many contracts (by path) the process keeps: a test suite's few, not a corpus. */
const KEPT = 4;

/**
 * The contracts read in this process, by path, the most recently used last. A contract is
 * reused while its files digest as they did when it was read: a second in-process mock on the
 * same files and a reload that changed only scenarios or fixtures get the same Contract, and with
 * it the validators built for it (http/contract-validator.ts), which cost 80 to 300 ms each.
 * Process-wide because the mocks that share a contract are started apart (two startMockServer
 * calls, or a server and its reload), and bounded so a long-lived process keeps a few.
 */
const kept = new Map<string, KeptContract>();

/**
 * The contract at `path`, reused if read before and unchanged, else read (checked whole if
 * `checked`, as loadContract) and kept.
 * `digested`: the digest of the files named by `digestedFiles`, taken before this call (a reload
 * digests first, so that an edit landing while it reads is seen by the next look).
 */
export function keptContract(
  path: string,
  {
    checked = false,
    digested,
    digestedFiles = [path],
  }: { checked?: boolean; digested?: string; digestedFiles?: readonly string[] } = {},
): KeptContract {
  const before = kept.get(path);
  // The caller's digest where it read the same files (a reload digests them first): they are
  // read once, not twice.
  const sameFiles = (files: readonly string[]) =>
    digested !== undefined && files.join('\n') === digestedFiles.join('\n');
  // Files that read as they did were checked, or not, as the path asks: a reload of the
  // packaged contract checks it whole only once it is edited.
  if (
    before &&
    (sameFiles(before.contract.files) ? digested : digestOfFiles(before.contract.files)) ===
      before.digest
  ) {
    kept.delete(path);
    kept.set(path, before);
    return before;
  }
  const contract = loadContract(path, { checked });
  // A contract now made of other files than were digested is digested over its own.
  const digest =
    digested !== undefined && sameFiles(contract.files) ? digested : digestOfFiles(contract.files);
  kept.delete(path);
  kept.set(path, { contract, digest });
  for (const oldest of kept.keys()) {
    if (kept.size <= KEPT) break;
    kept.delete(oldest);
  }
  return { contract, digest };
}
