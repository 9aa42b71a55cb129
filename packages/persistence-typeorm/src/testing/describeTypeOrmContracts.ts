import {
  describeAuditLogContract,
  describeBanStoreContract,
  describeIdempotencyStoreContract,
  describeKeyStoreContract,
  describeKeyUsageStoreContract,
  describePetRepositoryContract,
  describeWebhookHistoryContract,
  describeWebhookStoreContract,
} from '@petstore/core/contracts';
import type { DataSource } from 'typeorm';
import { TypeOrmAuditLog } from '../TypeOrmAuditLog.js';
import { TypeOrmBanStore } from '../TypeOrmBanStore.js';
import { TypeOrmIdempotencyStore } from '../TypeOrmIdempotencyStore.js';
import { TypeOrmKeyStore } from '../TypeOrmKeyStore.js';
import { TypeOrmKeyUsageStore } from '../TypeOrmKeyUsageStore.js';
import { describeOutboxAtomicity } from './describeOutboxAtomicity.js';
import { TypeOrmEventLog } from '../TypeOrmEventLog.js';
import { TypeOrmPetRepository } from '../TypeOrmPetRepository.js';
import { TypeOrmWebhookHistory } from '../TypeOrmWebhookHistory.js';
import { TypeOrmWebhookStore } from '../TypeOrmWebhookStore.js';

/** A migrated data source with no rows, and how to release it when the test is done (if it must be). */
export interface OpenedDataSource {
  dataSource: DataSource;
  close?(): Promise<void>;
}

/** Runs every port contract against this package's adapters on the data sources `open` gives, one per test. */
export function describeTypeOrmContracts(where: string, open: () => Promise<OpenedDataSource>): void {
  const on =
    <A>(adapter: (dataSource: DataSource) => A) =>
    async () => {
      const { dataSource, close } = await open();
      return { ...adapter(dataSource), close };
    };
  describePetRepositoryContract(
    `TypeOrmPetRepository ${where}`,
    on((d) => ({ repository: new TypeOrmPetRepository(d), events: new TypeOrmEventLog(d) })),
  );
  describeOutboxAtomicity(where, open);
  describeWebhookStoreContract(
    `TypeOrmWebhookStore ${where}`,
    on((d) => {
      const store = new TypeOrmWebhookStore(d);
      return { pets: new TypeOrmPetRepository(d), endpoints: store, queue: store };
    }),
  );
  describeWebhookHistoryContract(
    `TypeOrmWebhookHistory ${where}`,
    on((d) => {
      const store = new TypeOrmWebhookStore(d);
      return {
        history: new TypeOrmWebhookHistory(d),
        pets: new TypeOrmPetRepository(d),
        events: new TypeOrmEventLog(d),
        endpoints: store,
        queue: store,
      };
    }),
  );
  describeKeyStoreContract(
    `TypeOrmKeyStore ${where}`,
    on((d) => ({ store: new TypeOrmKeyStore(d) })),
  );
  describeAuditLogContract(
    `TypeOrmAuditLog ${where}`,
    on((d) => ({ log: new TypeOrmAuditLog(d) })),
  );
  describeKeyUsageStoreContract(
    `TypeOrmKeyUsageStore ${where}`,
    on((d) => ({ store: new TypeOrmKeyUsageStore(d) })),
  );
  describeBanStoreContract(
    `TypeOrmBanStore ${where}`,
    on((d) => ({ store: new TypeOrmBanStore(d) })),
  );
  describeIdempotencyStoreContract(
    `TypeOrmIdempotencyStore ${where}`,
    on((d) => ({ store: new TypeOrmIdempotencyStore(d) })),
  );
}
