// The editor's black-and-white preview (SPEC §4, Image): the picked file is drawn into a canvas,
// turned to gray and saved as a JPEG at quality 0.8 (SPEC §9). Everything stays on the page:
// the file is read through a blob: URL, which the CSP allows.

/** Longest side of the preview and of the JPEG sent; the server caps stored images at 1600 too. */
export const MAX_SIDE = 1600;
export const JPEG_QUALITY = 0.8;

/** Rec. 601 luma, written back to r, g and b (alpha kept). Works in place on RGBA data. */
export function toGray(data: Uint8ClampedArray): Uint8ClampedArray {
  for (let i = 0; i < data.length; i += 4) {
    const gray = Math.round(0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!);
    data[i] = gray;
    data[i + 1] = gray;
    data[i + 2] = gray;
  }
  return data;
}

/** Width and height scaled down (never up) so the longer side is at most `max`. */
export function fitWithin(width: number, height: number, max = MAX_SIDE): { width: number; height: number } {
  const scale = Math.min(1, max / Math.max(width, height, 1));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

function loadImage(url: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error('The image could not be decoded'));
    image.src = url;
  });
}

/** Draws `file` in gray on `canvas` and returns the JPEG to send. Rejects if anything fails. */
export async function drawGrayscale(file: Blob, canvas: HTMLCanvasElement): Promise<Blob> {
  const url = URL.createObjectURL(file);
  try {
    const image = await loadImage(url);
    const { width, height } = fitWithin(image.naturalWidth, image.naturalHeight);
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext('2d', { willReadFrequently: true });
    if (!context) throw new Error('No 2D canvas');
    context.fillStyle = '#ffffff'; // transparent PNG areas become paper white, not black, in a JPEG
    context.fillRect(0, 0, width, height);
    context.drawImage(image, 0, 0, width, height);
    const pixels = context.getImageData(0, 0, width, height);
    toGray(pixels.data);
    context.putImageData(pixels, 0, 0);
    return await new Promise<Blob>((resolve, reject) => {
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('toBlob failed'))), 'image/jpeg', JPEG_QUALITY);
    });
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** 'My Photo.PNG' → 'My Photo.jpg': the name the converted file is sent under. */
export function jpegName(name: string): string {
  const base = name.replace(/\.[^./\\]*$/, '') || 'image';
  return `${base}.jpg`;
}
