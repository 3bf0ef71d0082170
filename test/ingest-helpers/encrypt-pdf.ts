/**
 * A password-protected PDF built in memory for tests: the pages of build-pdf.ts, encrypted with the
 * standard security handler at revision 5 (AES-256, ISO 32000 extension level 3), whose passwords
 * are UTF-8 bytes, as in the fixture pdfjs-issue21579.pdf that docs/FORMATS.md [F12] works around.
 */
import { createCipheriv, createHash, randomBytes } from 'node:crypto';

const sha256 = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();

function aesNoPad(key: Buffer, data: Buffer, mode: 'aes-256-cbc' | 'aes-256-ecb'): Buffer {
  const cipher = createCipheriv(mode, key, mode === 'aes-256-cbc' ? Buffer.alloc(16) : null);
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(data), cipher.final()]);
}

/** A stream's bytes as revision 5 stores them: a random IV, then AES-256-CBC with PKCS#7 padding. */
function encryptStream(key: Buffer, data: Buffer): Buffer {
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-cbc', key, iv);
  return Buffer.concat([iv, cipher.update(data), cipher.final()]);
}

function escapePdf(s: string): string {
  return s.replace(/[\\()]/g, (c) => `\\${c}`);
}

/** Each page is a list of lines (ASCII); `password` opens it (the owner password is another). */
export function buildEncryptedPdf(pages: string[][], password: string): Uint8Array {
  const fileKey = randomBytes(32);
  const user = Buffer.from(password, 'utf8').subarray(0, 127);
  const owner = randomBytes(16);
  const [uValid, uKey, oValid, oKey] = [randomBytes(8), randomBytes(8), randomBytes(8), randomBytes(8)];
  const U = Buffer.concat([sha256(user, uValid), uValid, uKey]);
  const UE = aesNoPad(sha256(user, uKey), fileKey, 'aes-256-cbc');
  const O = Buffer.concat([sha256(owner, oValid, U), oValid, oKey]);
  const OE = aesNoPad(sha256(owner, oKey, U), fileKey, 'aes-256-cbc');
  const P = -4;
  const perms = Buffer.alloc(16);
  perms.writeInt32LE(P, 0);
  perms.writeUInt32LE(0xffffffff, 4);
  perms.write('Tadb', 8, 'latin1');
  randomBytes(4).copy(perms, 12);
  const Perms = aesNoPad(fileKey, perms, 'aes-256-ecb');
  const hex = (b: Buffer) => `<${b.toString('hex')}>`;

  const objects: Buffer[] = [];
  const kids = pages.map((_, i) => `${4 + 2 * i} 0 R`).join(' ');
  const text = (s: string) => Buffer.from(s, 'latin1');
  objects.push(text('<< /Type /Catalog /Pages 2 0 R >>'));
  objects.push(text(`<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`));
  objects.push(text('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>'));
  for (const [i, lines] of pages.entries()) {
    const ops = lines.map((l, j) => `${j === 0 ? '' : '0 -14 Td '}(${escapePdf(l)}) Tj`);
    const stream = encryptStream(fileKey, text(`BT /F1 10 Tf 40 760 Td ${ops.join('\n')} ET`));
    objects.push(
      text(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + 2 * i} 0 R >>`,
      ),
    );
    objects.push(
      Buffer.concat([text(`<< /Length ${stream.length} >>\nstream\n`), stream, text('\nendstream')]),
    );
  }
  objects.push(
    text(
      `<< /Filter /Standard /V 5 /R 5 /Length 256 /CF << /StdCF << /AuthEvent /DocOpen /CFM /AESV3 /Length 32 >> >> /StmF /StdCF /StrF /StdCF /O ${hex(O)} /U ${hex(U)} /OE ${hex(OE)} /UE ${hex(UE)} /P ${P} /Perms ${hex(Perms)} >>`,
    ),
  );
  const encryptRef = objects.length;
  const parts: Buffer[] = [text('%PDF-1.7\n')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(length);
    const obj = Buffer.concat([text(`${i + 1} 0 obj\n`), body, text('\nendobj\n')]);
    parts.push(obj);
    length += obj.length;
  });
  let tail = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) tail += `${String(off).padStart(10, '0')} 00000 n \n`;
  const id = randomBytes(16).toString('hex');
  tail += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Encrypt ${encryptRef} 0 R /ID [<${id}> <${id}>] >>\nstartxref\n${length}\n%%EOF\n`;
  parts.push(text(tail));
  return new Uint8Array(Buffer.concat(parts));
}
