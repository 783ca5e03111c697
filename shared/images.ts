// What an image field accepts, as the picker and the upload both say it (SPEC §5).

export const INVALID_IMAGE_MESSAGE = 'Please select a valid image file';

/** 'Image cannot exceed 5MB' for a 5 MB limit. */
export function imageTooLargeMessage(maxBytes: number): string {
  return `Image cannot exceed ${Math.round(maxBytes / (1024 * 1024))}MB`;
}
