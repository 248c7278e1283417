/**
 * True when an RFC 7240 `Prefer` header asks for `if-available` (serve only from cache): the
 * exact token among comma-separated preferences, so `if-available-but-different` does not count.
 * @public
 * @category EndpointPicker façade
 */
export function prefersIfAvailable(prefer: string | undefined): boolean {
  if (prefer === undefined || prefer === '') return false;
  for (const part of prefer.split(',')) {
    const token = (part.split(';')[0] ?? '').trim().toLowerCase();
    if (token === 'if-available') return true;
  }
  return false;
}
