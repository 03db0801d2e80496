import type { ReloadStatus } from './admin-client.js';
import { byId, h } from './dom.js';

/** Where a failed edit went wrong, as editors and terminals link it: `file:line:column`. */
export function placeOf(reload: ReloadStatus): string | undefined {
  if (reload.file === undefined) return undefined;
  if (reload.line === undefined) return reload.file;
  return `${reload.file}:${String(reload.line)}:${String(reload.column ?? 1)}`;
}

/**
 * The banner a failed reload shows until a good edit applies. Its element is an alert that stays
 * in the page, empty while all is well: a screen reader announces what is put in it, once per
 * failure (a poll that finds the same failure leaves it alone). It takes no focus.
 */
export class ReloadBanner {
  readonly #banner = byId('reload-banner', HTMLDivElement);
  #shown = '';

  /** Shows the failure, or empties the banner; true when a failure was just cleared. */
  show(reload: ReloadStatus | undefined): boolean {
    const failed = reload?.status === 'failed' ? reload : undefined;
    const key = failed ? JSON.stringify([placeOf(failed), failed.message]) : '';
    if (key === this.#shown) return false;
    const cleared = this.#shown !== '' && key === '';
    this.#shown = key;
    if (!failed) {
      this.#banner.replaceChildren();
      return cleared;
    }
    const place = placeOf(failed);
    this.#banner.replaceChildren(
      h('strong', {}, 'The last edit was not applied.'),
      ' ',
      ...(place === undefined ? [] : [h('code', { class: 'place' }, place), ': ']),
      failed.message ?? 'no reason given',
      h(
        'span',
        { class: 'block' },
        'The mock serves the last good version until a good edit applies.',
      ),
    );
    return false;
  }
}
