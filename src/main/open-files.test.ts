import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import type { BridgeResult } from '#shared/api/bridge.ts';
import { CONTRACT } from '#shared/api/contract.ts';
import type { AppCommandEvent } from '#shared/api/events.ts';
import { filesFromLaunch, handOverFiles, MAX_PATHS_PER_ADD } from './open-files.ts';

const CWD = resolve('/home/ana/Documents');
const on = (...paths: string[]) => {
  const set = new Set(paths.map((p) => resolve(p)));
  return (path: string) => set.has(path);
};

describe('filesFromLaunch ([N8] in docs/PACKAGING.md)', () => {
  it('takes the operands of a packaged launch, resolved against its working directory', () => {
    const argv = ['/opt/Org Brain/org-brain', 'minutes.pdf', '../notes', '/tmp/a.md'];
    const exists = on(`${CWD}/minutes.pdf`, '/home/ana/notes', '/tmp/a.md');
    expect(filesFromLaunch({ argv, workingDirectory: CWD, isPackaged: true, exists })).toEqual([
      resolve(CWD, 'minutes.pdf'),
      resolve('/home/ana/notes'),
      resolve('/tmp/a.md'),
    ]);
  });

  it('skips the executable, every switch and the app path of an unpackaged launch', () => {
    const argv = [
      '/repo/node_modules/electron/dist/electron',
      '--allow-file-access-from-files',
      '--original-process-start-time=13371',
      '.',
      '--inspect=9229',
      'report.docx',
    ];
    const exists = () => true;
    expect(filesFromLaunch({ argv, workingDirectory: CWD, isPackaged: false, exists })).toEqual([
      resolve(CWD, 'report.docx'),
    ]);
    // Packaged, the same "." is a folder the person named.
    expect(filesFromLaunch({ argv, workingDirectory: CWD, isPackaged: true, exists })).toEqual([
      resolve(CWD),
      resolve(CWD, 'report.docx'),
    ]);
  });

  it('keeps operands after -- even when they look like switches', () => {
    const argv = ['/opt/Org Brain/org-brain', '--', '-odd-name.txt'];
    expect(filesFromLaunch({ argv, workingDirectory: CWD, isPackaged: true, exists: () => true })).toEqual([
      resolve(CWD, '-odd-name.txt'),
    ]);
  });

  it('reads file URLs, drops other URLs, missing files, blanks and repeats', () => {
    const file = resolve('/tmp/Board minutes.pdf');
    const argv = [
      'org-brain',
      pathToFileURL(file).href,
      'https://example.com/x.pdf',
      'org-brain://open',
      'missing.txt',
      '',
      file,
      '/tmp/../tmp/Board minutes.pdf',
    ];
    const exists = on(file);
    expect(filesFromLaunch({ argv, workingDirectory: CWD, isPackaged: true, exists })).toEqual([file]);
  });

  it('gives nothing for a bare launch', () => {
    const exists = () => true;
    expect(filesFromLaunch({ argv: ['org-brain'], workingDirectory: CWD, isPackaged: true, exists })).toEqual(
      [],
    );
    expect(filesFromLaunch({ argv: [], workingDirectory: CWD, isPackaged: true, exists })).toEqual([]);
    expect(
      filesFromLaunch({ argv: ['electron', '/repo'], workingDirectory: CWD, isPackaged: false, exists }),
    ).toEqual([]);
  });
});

describe('handOverFiles ([N8])', () => {
  const report = { added: [{ id: 'f_1', label: 'a.md', path: '/tmp/a.md' }], unchanged: [], refused: [] };

  it('adds the files with files.add and sends the window the report', async () => {
    const addFiles = vi.fn(
      async (_input: { paths: string[] }): Promise<BridgeResult> => ({ ok: true, data: report }),
    );
    const sent: AppCommandEvent[] = [];
    await handOverFiles(['/tmp/a.md'], 'Opened with Org Brain', { addFiles, send: (e) => sent.push(e) });
    expect(addFiles).toHaveBeenCalledWith({ paths: ['/tmp/a.md'] });
    expect(CONTRACT['files.add'].input.safeParse(addFiles.mock.calls[0]?.[0]).success).toBe(true);
    expect(sent).toEqual([{ command: 'added', report, source: 'Opened with Org Brain' }]);
  });

  it('does nothing for no files', async () => {
    const addFiles = vi.fn();
    const send = vi.fn();
    await handOverFiles([], 'x', { addFiles, send });
    expect(addFiles).not.toHaveBeenCalled();
    expect(send).not.toHaveBeenCalled();
  });

  it('reports every file refused when the engine refuses the call', async () => {
    const sent: AppCommandEvent[] = [];
    await handOverFiles(['/a', '/b'], 'Add Files', {
      addFiles: async () => ({
        ok: false,
        error: { code: 'engine-unavailable', message: 'The engine stopped.' },
      }),
      send: (e) => sent.push(e),
    });
    expect(sent).toEqual([
      {
        command: 'added',
        source: 'Add Files',
        report: {
          added: [],
          unchanged: [],
          refused: [
            { path: '/a', reason: 'The engine stopped.' },
            { path: '/b', reason: 'The engine stopped.' },
          ],
        },
      },
    ]);
  });

  it('asks for no more than files.add takes, and reports the rest', async () => {
    const paths = Array.from({ length: MAX_PATHS_PER_ADD + 2 }, (_, i) => `/f/${i}`);
    const addFiles = vi.fn(async (input: { paths: string[] }): Promise<BridgeResult> => {
      expect(CONTRACT['files.add'].input.safeParse(input).success).toBe(true);
      return { ok: true, data: { added: [], unchanged: [], refused: [] } };
    });
    const sent: AppCommandEvent[] = [];
    await handOverFiles(paths, 'x', { addFiles, send: (e) => sent.push(e) });
    expect(addFiles.mock.calls[0]?.[0].paths).toHaveLength(MAX_PATHS_PER_ADD);
    expect(CONTRACT['files.add'].input.safeParse({ paths }).success).toBe(false);
    const event = sent[0];
    expect(event?.command === 'added' && event.report.refused.map((r) => r.path)).toEqual(paths.slice(-2));
  });
});
