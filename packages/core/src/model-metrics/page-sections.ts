/*
 * Picks, out of a `/metrics` page still in bytes, the parts a filtered parse reads: the family
 * blocks (`# HELP`/`# TYPE` line and the samples up to the next comment) of wanted families, and
 * any lines it cannot attribute without parsing (samples before the first comment or after an
 * unknown comment). Unwanted blocks are jumped over with one native search for the next comment
 * line, so a histogram's 25 bucket lines cost nothing. With `until`, the scan ends at the first
 * unwanted family once every group has been seen, like the parser's own early stop.
 *
 * The exposition format keeps each family's lines in one group after its comments; a page that
 * scatters a family's samples under another family's comments loses those samples here (the full
 * parser would find them).
 */

const NL_HASH = Buffer.from('\n#');
const HELP = [0x48, 0x45, 0x4c, 0x50]; // 'HELP'
const TYPE = [0x54, 0x59, 0x50, 0x45]; // 'TYPE'

/** Name in a `# HELP name …` / `# TYPE name …` line starting at `pos`, or undefined for other comments. */
function commentFamily(page: Buffer, pos: number, end: number): string | undefined {
  // '#', blanks, HELP|TYPE, blanks, name
  let p = pos + 1;
  while (p < end && (page[p] === 32 || page[p] === 9)) p++;
  const word = page[p] === 0x48 ? HELP : TYPE;
  if (p + 4 > end || page[p] !== word[0] || page[p + 1] !== word[1] || page[p + 2] !== word[2] || page[p + 3] !== word[3]) return undefined;
  p += 4;
  const blanks = p;
  while (p < end && (page[p] === 32 || page[p] === 9)) p++;
  if (p === blanks) return undefined;
  const start = p;
  while (p < end && page[p] !== 32 && page[p] !== 9 && page[p] !== 13) p++;
  return p === start ? undefined : page.toString('latin1', start, p);
}

/** End (exclusive) of the block starting at `pos`: the start of the next comment line, or `length`. */
function blockEnd(page: Buffer, pos: number, length: number): number {
  const i = page.indexOf(NL_HASH, pos);
  return i === -1 || i >= length ? length : i + 1;
}

/**
 * The text of the blocks of `page[0, length)` that a parse filtered by `wanted` (and stopped by
 * `until`) reads: parsing it with the same options reads every sample the parse of the page
 * reads, and at most some more whole wanted families (samples before the first comment line are
 * not attributed here, so they do not count towards `until`).
 * @internal
 */
export function selectFamilySections(page: Buffer, length: number, wanted: (familyName: string) => boolean, until?: readonly (readonly string[])[]): string {
  const pending = until === undefined ? undefined : new Set(until);
  let out = '';
  let pos = 0;
  while (pos < length) {
    const nl = page.indexOf(10, pos);
    const lineEnd = nl === -1 || nl >= length ? length : nl;
    const end = blockEnd(page, lineEnd, length);
    const name = page[pos] === 35 ? commentFamily(page, pos, lineEnd) : undefined;
    if (name !== undefined && (name.startsWith('"') || wanted(name))) {
      out += page.toString('utf8', pos, end);
      // Samples follow the comment line: the family is present.
      if (pending !== undefined && end > lineEnd + 1) for (const group of pending) if (group.includes(name)) pending.delete(group);
    } else if (name !== undefined) {
      // An unwanted family with samples once everything was found: where the parser would stop.
      if (pending?.size === 0 && end > lineEnd + 1) break;
    } else {
      // Another comment (`# EOF`, `# UNIT`) or samples before any comment: the parser decides.
      out += page.toString('utf8', pos, end);
    }
    pos = end;
  }
  return out;
}
