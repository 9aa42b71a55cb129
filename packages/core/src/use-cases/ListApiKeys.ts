import type { ApiKey } from '../access/ApiKey.js';
import type { KeyStore } from '../ports/KeyStore.js';

/** Every key, oldest first, revoked ones included; never a secret. */
export class ListApiKeys {
  constructor(private readonly keys: KeyStore) {}

  execute(): Promise<ApiKey[]> {
    return this.keys.list();
  }
}
