/** Base64 to bytes: items.original's answer (docs/FORMATS.md [F15]) and pdf.js's bundled data. */
export function bytesOfBase64(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
