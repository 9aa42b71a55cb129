import type { KeyView } from '../access/KeyView.js';
import type { KeyStore } from '../ports/KeyStore.js';
import { findKey } from './findKey.js';
import type { KeyViews } from './KeyViews.js';

/** One key, with its last use and any ban in force; NotFoundError for an unknown id. */
export class GetApiKey {
  constructor(
    private readonly keys: KeyStore,
    private readonly views: KeyViews,
  ) {}

  async execute(id: string): Promise<KeyView> {
    return this.views.one(await findKey(this.keys, id));
  }
}
