/**
 * 128 random bits as 32 hex digits, from Web Crypto (Node 20+ and browsers). `randomUUID` is much the cheaper in
 * Node (it draws from a pool); browsers offer it only in secure contexts, hence the fallback.
 */
export function randomId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID().replace(/-/g, '');
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let id = '';
  for (const byte of bytes) id += byte.toString(16).padStart(2, '0');
  return id;
}
