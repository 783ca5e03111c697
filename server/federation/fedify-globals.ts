// What Fedify expects of the platform and Node 20 lacks (RECIPES.md, Fedify): `navigator` (without
// it importing an Ed25519 key throws, which Fedify swallows, and actors then answer 500) and
// ArrayBuffer.prototype.transfer. Imported, for its effect, before anything of Fedify runs; Node 24
// has both and is left alone.
if (typeof globalThis.navigator === 'undefined') {
  Object.defineProperty(globalThis, 'navigator', { value: { userAgent: `Node.js/${process.versions.node}` }, configurable: true });
}

const prototype = ArrayBuffer.prototype as ArrayBuffer & { transfer?: (length?: number) => ArrayBuffer };
if (typeof prototype.transfer !== 'function') {
  Object.defineProperty(ArrayBuffer.prototype, 'transfer', {
    configurable: true,
    writable: true,
    value(this: ArrayBuffer, length = this.byteLength): ArrayBuffer {
      const copy = new ArrayBuffer(length);
      new Uint8Array(copy).set(new Uint8Array(this, 0, Math.min(length, this.byteLength)));
      // The original is detached, as transfer() leaves it.
      structuredClone(this, { transfer: [this] });
      return copy;
    },
  });
}

export {};
