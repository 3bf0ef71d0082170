/**
 * Encodes text in a legacy encoding (one byte or double byte: Shift JIS, GBK, Big5, EUC-KR, EUC-JP's
 * common plane) by reversing what Node's TextDecoder reads every one- and two-byte sequence as.
 * Node has no encoder for them; tests need their bytes.
 */
const tables = new Map<string, Map<string, number[]>>();

function tableFor(label: string): Map<string, number[]> {
  const known = tables.get(label);
  if (known) return known;
  const decoder = new TextDecoder(label, { fatal: true });
  const table = new Map<string, number[]>();
  const add = (bytes: number[]) => {
    try {
      const c = decoder.decode(Uint8Array.from(bytes));
      if ([...c].length === 1 && !table.has(c)) table.set(c, bytes);
    } catch {
      // not a character in this encoding
    }
  };
  for (let b = 0; b < 0x100; b++) add([b]);
  for (let lead = 0x81; lead <= 0xfe; lead++)
    for (let trail = 0x40; trail <= 0xfe; trail++) add([lead, trail]);
  tables.set(label, table);
  return table;
}

export function encodeLegacy(text: string, label: string): Uint8Array {
  const table = tableFor(label);
  const out: number[] = [];
  for (const c of text) {
    const bytes = table.get(c);
    if (!bytes) throw new Error(`${JSON.stringify(c)} has no ${label} bytes`);
    out.push(...bytes);
  }
  return Uint8Array.from(out);
}
