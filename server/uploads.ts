// Where processed images live and the URL they are served at.
import path from 'node:path';

export const UPLOADS_URL = '/uploads';

export function uploadsDir(dataDir: string): string {
  return path.join(dataDir, 'uploads');
}

export function uploadUrl(fileName: string | null): string | null {
  return fileName ? `${UPLOADS_URL}/${fileName}` : null;
}
