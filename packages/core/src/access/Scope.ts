/** What a key may do: `pets:read` for the `GET` operations, `pets:write` for `POST /v1/pets`. */
export const SCOPES = ['pets:read', 'pets:write'] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: unknown): value is Scope {
  return value === 'pets:read' || value === 'pets:write';
}
