/**
 * pdf.js (inside unpdf) calls `ArrayBuffer.prototype.transferToFixedLength` when it compiles a
 * page's fonts for its operator list; Node 20 does not have it (Node 21 and Electron do), and there
 * the whole operator list fails, so no image of such a page is found and it cannot be OCR'd
 * (docs/OCR.md [O9]: the Russian tax form pdfjs-issue12963 reads no scan without it). Here it
 * returns a copy of the buffer's first `length` bytes, zero-filled past its end; the original is
 * left as it was (pdf.js drops it).
 */
type Transfer = (this: ArrayBuffer, length?: number) => ArrayBuffer;
const proto = ArrayBuffer.prototype as ArrayBuffer & { transferToFixedLength?: Transfer };

if (typeof proto.transferToFixedLength !== 'function') {
  Object.defineProperty(ArrayBuffer.prototype, 'transferToFixedLength', {
    configurable: true,
    writable: true,
    value: function transferToFixedLength(this: ArrayBuffer, length = this.byteLength): ArrayBuffer {
      const copy = new ArrayBuffer(length);
      new Uint8Array(copy).set(new Uint8Array(this, 0, Math.min(length, this.byteLength)));
      return copy;
    } satisfies Transfer,
  });
}
