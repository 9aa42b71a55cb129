import { betterSqlite3 } from '@petstore/persistence-typeorm';

const Database = betterSqlite3();

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

export interface SeededVolume {
  /** A key of the seeded ones (`volume key 00042`). */
  keyId: string;
  /** The seeded endpoint, whose delivery log holds every seeded attempt. */
  endpointId: string;
}

/**
 * Writes `keys` keys and one disabled webhook endpoint with `attempts` delivery attempts (and their deliveries) into
 * the SQLite database of a running server, in one transaction: the volume the console's pages must show their first
 * screen at. Rows as the server's own schema holds them; nothing is attempted (the deliveries are done, the endpoint
 * disabled).
 */
export function seedConsoleVolume(file: string, { keys, attempts }: { keys: number; attempts: number }): SeededVolume {
  const db = new Database(file);
  const start = Date.now() - 60 * 86_400_000;
  const endpointId = 'we_00000000000c0ffe';
  try {
    db.pragma('busy_timeout = 10000');
    db.transaction(() => {
      const key = db.prepare(
        `INSERT INTO api_keys (id, name, plan, per_minute, per_day, secret_hash, created_at_ms, revoked_at_ms, scopes, expires_at_ms, disabled, previous_secret_hash, previous_secret_expires_at_ms)
         VALUES (?, ?, 'pro', NULL, NULL, ?, ?, NULL, 'pets:read', NULL, 0, NULL, NULL)`,
      );
      for (let i = 0; i < keys; i++) key.run(`key_volume${hex(i, 8)}`, `volume key ${String(i).padStart(5, '0')}`, hex(i, 64), start + i);
      db.prepare(
        `INSERT INTO webhook_endpoints (id, url, event_types, description, disabled, disabled_reason, created_at_ms, secret, previous_secret, previous_secret_expires_at_ms, version)
         VALUES (?, 'https://volume.example/hooks', 'pet.created,pet.updated', 'volume', 1, 'manual', ?, 'whsec_volume', NULL, NULL, 1)`,
      ).run(endpointId, start);
      const delivery = db.prepare(
        `INSERT INTO webhook_deliveries (id, event_id, endpoint_id, state, attempts, due_at_ms) VALUES (?, ?, ?, 'delivered', 1, ?)`,
      );
      const attempt = db.prepare(
        `INSERT INTO webhook_attempts (id, delivery_id, event_id, endpoint_id, attempt, at_ms, status_code, duration_ms, error, response_body, succeeded)
         VALUES (?, ?, ?, ?, 1, ?, 200, 12, NULL, 'ok', 1)`,
      );
      for (let i = 0; i < attempts; i++) {
        const id = 10_000_000 + i;
        const eventId = `evt_${hex(i, 28)}`;
        delivery.run(id, eventId, endpointId, start + i * 10);
        attempt.run(`att_volume${hex(i, 8)}`, id, eventId, endpointId, start + i * 10);
      }
    })();
  } finally {
    db.close();
  }
  return { keyId: `key_volume${hex(42, 8)}`, endpointId };
}
