import { accountExportFileName } from '@sendwell/contracts';
import { useMutation } from '@tanstack/react-query';
import { failure, requestHeaders } from '@/lib/api-client';
import { saveFile } from '@/lib/save-file';

/** The name the server gives the download (`sendwell-export-<date>.json`), else today's. */
function fileNameOf(res: Response): string {
  return /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? accountExportFileName(new Date());
}

/** GET /api/user/export: everything stored about the user, saved as one JSON file. */
export async function exportAccount(): Promise<void> {
  const res = await fetch('/api/user/export', { credentials: 'include', headers: requestHeaders(false) });
  if (!res.ok) throw await failure(res, (text) => `${res.status}: ${text || res.statusText}`);
  saveFile(await res.blob(), fileNameOf(res));
}

export function useExportAccount() {
  return useMutation({ mutationFn: exportAccount });
}
