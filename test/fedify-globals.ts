// Two globals Fedify expects and Node 20 lacks (RECIPES.md), defined before Fedify loads: import
// this module first. `navigator`: Fedify reads `navigator?.userAgent` when it imports a key (an
// Ed25519 one fails without it, and actors then answer 500). `ArrayBuffer.prototype.transfer`:
// Fedify 1.x failed on it; 2.x finds it only through a polyfill bundled in a dependency.
// Node 22 and later have both: nothing changes there.

if (!('navigator' in globalThis)) {
  Object.defineProperty(globalThis, 'navigator', {
    value: { userAgent: `Node.js/${process.versions.node.split('.')[0]}` },
    configurable: true, writable: true,
  });
}

interface Transferable { transfer?: (newLength?: number) => ArrayBuffer }

const arrayBuffers = ArrayBuffer.prototype as ArrayBuffer & Transferable;
if (typeof arrayBuffers.transfer !== 'function') {
  Object.defineProperty(ArrayBuffer.prototype, 'transfer', {
    /** A copy of the bytes (cut or zero-filled to `newLength`); the buffer itself is detached. */
    value(this: ArrayBuffer, newLength = this.byteLength): ArrayBuffer {
      const moved = new ArrayBuffer(newLength);
      new Uint8Array(moved).set(new Uint8Array(this, 0, Math.min(newLength, this.byteLength)));
      structuredClone(this, { transfer: [this] });
      return moved;
    },
    configurable: true, writable: true,
  });
}

export {};
