import { subjectIdOf, type AuditEventView, type AuditValue, type KeyUsageReport, type KeyView, type RateLimitUsage } from '@petstore/core';

/** Left-aligned columns two spaces apart, without trailing spaces. */
function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return [header, ...rows]
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

export function keyTable(keys: KeyView[]): string {
  return table(
    ['ID', 'NAME', 'PLAN', 'PER-MINUTE', 'PER-DAY', 'SCOPES', 'STATUS', 'EXPIRES', 'LAST-USED', 'CREATED', 'REVOKED'],
    keys.map((k) => [
      k.id,
      k.name || '-',
      k.plan,
      String(k.limits.perMinute),
      String(k.limits.perDay),
      k.scopes.join(','),
      k.status,
      k.expiresAt ?? '-',
      k.lastUsedAt ?? '-',
      k.createdAt,
      k.revokedAt ?? '-',
    ]),
  );
}

/** One key, a field a line. */
export function keyDetails(key: KeyView): string {
  const limit = (override: number | null, inForce: number) => `${inForce}${override === null ? " (the plan's)" : ''}`;
  const lines: [string, string][] = [
    ['id', key.id],
    ['name', key.name || '-'],
    ['plan', key.plan],
    ['per-minute', limit(key.limitOverrides.perMinute, key.limits.perMinute)],
    ['per-day', limit(key.limitOverrides.perDay, key.limits.perDay)],
    ['scopes', key.scopes.join(',')],
    ['status', key.status],
    ['expires', key.expiresAt ?? 'never'],
    ['disabled', String(key.disabled)],
    ['created', key.createdAt],
    ['last used', key.lastUsedAt ?? 'never'],
    ['banned until', key.bannedUntil ?? '-'],
    ['revoked', key.revokedAt ?? '-'],
    ['previous secret until', key.previousSecretExpiresAt ?? '-'],
  ];
  return lines.map(([field, value]) => `${`${field}:`.padEnd(23)}${value}`).join('\n');
}

const isoSeconds = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString().replace('.000Z', 'Z');

/**
 * The current windows (as GET /v1/rate_limit shows them), the ban, the last use and the requests per UTC day (admitted,
 * and refused by the rate limit).
 */
export function usageTable(usage: RateLimitUsage, history: KeyUsageReport): string {
  const windows = table(
    ['WINDOW', 'LIMIT', 'USED', 'REMAINING', 'RESET'],
    usage.windows.map((w) => [w.name, String(w.limit), String(w.used), String(w.remaining), isoSeconds(w.reset)]),
  );
  const ban = usage.bannedUntil === null ? 'Not banned.' : `Banned until ${isoSeconds(usage.bannedUntil)}.`;
  const days = table(
    ['DAY', 'REQUESTS', 'LIMITED'],
    history.days.map(({ day, requests, limited }) => [day, String(requests), String(limited)]),
  );
  return [`${usage.keyId} on the ${usage.plan} plan`, windows, ban, `Last used: ${history.lastUsedAt ?? 'never'}.`, days].join('\n');
}

const shown = (value: AuditValue) => (value === null ? '-' : Array.isArray(value) ? value.join(',') : String(value));

export function auditTable(events: AuditEventView[]): string {
  return table(
    ['AT', 'ACTOR', 'ACTION', 'SUBJECT', 'CHANGES'],
    events.map((e) => [
      e.at,
      e.actor,
      e.action,
      subjectIdOf(e),
      Object.entries(e.changes)
        .map(([field, { before, after }]) => `${field}: ${shown(before)} -> ${shown(after)}`)
        .join('; ') || '-',
    ]),
  );
}
