// The scheme, then spaces or tabs alike, then the credential (Node has already trimmed the value's ends).
const BEARER = /^bearer[ \t]+([^ \t]+)$/i;

/**
 * The bearer secret of `Authorization: Bearer <secret>` (scheme case-insensitive). Any other non-empty value, a bare
 * secret included, is null: a credential in another form, refused as invalid (RFC 6750 requires the scheme).
 * Absence stays undefined ("missing").
 */
export function bearerSecret(header: string): string | null | undefined {
  if (header === '') return undefined;
  return BEARER.exec(header)?.[1] ?? null;
}
