/**
 * Password-protected DOCX, XLSX and PPTX (docs/FORMATS.md [F11], [F12]): such a file is not a ZIP
 * but an OLE compound file (CFB) holding `EncryptionInfo` and `EncryptedPackage` (ECMA-376 Agile or
 * Standard encryption). officecrypto-tool decrypts it in memory with the password given for this
 * one extraction; the ZIP that comes out then passes the same zip-bomb checks as any other
 * ([Z1] in docs/SECURITY.md) before a parser sees it. The password is never kept ([U1]).
 */
import CFB from 'cfb';
import officeCrypto from 'officecrypto-tool';
import { AppError } from '#shared/errors.ts';
import { needsPasswordReason, WRONG_PASSWORD } from '#shared/password.ts';
import { assertNotZipBomb, readZipDirectory, ZipDirectoryError } from './zip-directory.ts';

const CFB_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

export function isCfb(bytes: Uint8Array): boolean {
  return CFB_MAGIC.every((b, i) => bytes[i] === b);
}

/** An OLE container that holds an encrypted OOXML package (not an old binary .doc or .xls). */
export function isEncryptedOffice(bytes: Uint8Array): boolean {
  if (!isCfb(bytes)) return false;
  try {
    const container = CFB.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      type: 'buffer',
    });
    return Boolean(CFB.find(container, '/EncryptionInfo') && CFB.find(container, '/EncryptedPackage'));
  } catch {
    return false;
  }
}

/**
 * The password Excel encrypts a workbook with when it is only protected against changes ("read
 * only recommended", a protected structure): Excel opens such a file with no prompt, so Org Brain
 * does too ([F20] in docs/FORMATS.md). Well known and in Microsoft's own documentation; not a secret.
 */
const EXCEL_DEFAULT_PASSWORD = 'VelvetSweatshop';

/** A workbook encrypted with Excel's default password opens without asking ([F20]); else null. */
async function withDefaultPassword(
  bytes: Uint8Array,
  what: string,
  fileLabel: string,
): Promise<Uint8Array | null> {
  if (what !== OFFICE_KIND.xlsx) return null;
  try {
    return await decryptOffice(bytes, EXCEL_DEFAULT_PASSWORD, what, fileLabel);
  } catch (err) {
    if (err instanceof AppError && err.message.startsWith(WRONG_PASSWORD)) return null;
    throw err;
  }
}

/**
 * The ZIP inside an encrypted Office file. No password: the file needs one ([F11]); a wrong one:
 * `wrong password for <file>`. `what` names the kind ("Word document").
 */
async function decryptOffice(
  bytes: Uint8Array,
  password: string | undefined,
  what: string,
  fileLabel: string,
): Promise<Uint8Array> {
  if (password === undefined || password === '') throw new AppError('refused', needsPasswordReason(what));
  let plain: Buffer;
  try {
    plain = await officeCrypto.decrypt(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      password,
    });
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    if (/password is incorrect/i.test(reason)) throw new AppError('refused', `${WRONG_PASSWORD}${fileLabel}`);
    // The library's own words, never the password (it is not part of any message it makes).
    throw new AppError('refused', `corrupt or unreadable encrypted ${what}: ${reason.slice(0, 200)}`);
  }
  try {
    // The engine process checks the declared sizes of a plain ZIP before the worker sees it; a
    // decrypted one is checked here, then inflated and counted like any other (zip-verify.ts).
    assertNotZipBomb(readZipDirectory(plain));
  } catch (err) {
    if (!(err instanceof ZipDirectoryError)) throw err;
    throw new AppError('refused', `corrupt or unreadable ${what}: ${err.message}`);
  }
  return new Uint8Array(plain.buffer, plain.byteOffset, plain.byteLength);
}

const OFFICE_KIND: Record<string, string> = {
  docx: 'Word document',
  xlsx: 'Excel workbook',
  pptx: 'PowerPoint presentation',
};

/**
 * The bytes a DOCX/XLSX/PPTX reader gets: the file itself, or the ZIP decrypted from it with the
 * password ([F12]); `unlocked` says which. Read-back has no password and so fails as "needs a
 * password", which read.ts answers from the indexed text instead ([F13]).
 */
export async function officeBytes(
  bytes: Uint8Array,
  format: string,
  password: string | undefined,
  fileLabel: string,
): Promise<{ bytes: Uint8Array; unlocked: boolean }> {
  const what = OFFICE_KIND[format];
  if (!what || !isEncryptedOffice(bytes)) return { bytes, unlocked: false };
  if (password === undefined || password === '') {
    // Opened by Excel's default password, the file is an ordinary one: read back the same way.
    const opened = await withDefaultPassword(bytes, what, fileLabel);
    if (opened) return { bytes: opened, unlocked: false };
  }
  return { bytes: await decryptOffice(bytes, password, what, fileLabel), unlocked: true };
}
