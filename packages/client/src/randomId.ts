/** 128 random bits as 32 hex digits, from Web Crypto (Node 20+, and browsers, secure context or not). */
export function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let id = '';
  for (const byte of bytes) id += byte.toString(16).padStart(2, '0');
  return id;
}
