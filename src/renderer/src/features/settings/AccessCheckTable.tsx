import type { AccessCheckReport } from '#shared/api/ops/access.ts';
import './access-checks.css';

type CaseResult = AccessCheckReport['cases'][number];

/** What a failed case lacked: the files it missed or leaked, or why it could not be judged. */
function detailsOf(c: CaseResult): string {
  if (c.error) return c.error;
  const parts: string[] = [];
  if (c.missing.length) parts.push(`Missing: ${c.missing.join(', ')}`);
  if (c.leaked.length) parts.push(`Leaked: ${c.leaked.join(', ')}`);
  return parts.join(' · ');
}

/** The pass/fail table of a run ([R4] in docs/RETRIEVAL.md): one row a case, in the file's order. */
export function AccessCheckTable({ report }: { report: AccessCheckReport }) {
  return (
    <div className="access-checks__results">
      <p className="setting-row__hint" role="status" aria-label="Access check summary">
        {`${report.passed} passed, ${report.failed} failed`}
        {report.semantic ? '' : ' · keyword search only (semantic search is off)'}
      </p>
      <table className="access-checks__table" aria-label="Access check results">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Member</th>
            <th scope="col">Question</th>
            <th scope="col">Result</th>
            <th scope="col">Missing / leaked</th>
          </tr>
        </thead>
        <tbody>
          {report.cases.map((c, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a run's rows never move; the case number is their identity.
            <tr key={i}>
              <td>{i + 1}</td>
              <td className="mono">{c.as}</td>
              <td>{c.question}</td>
              <td>
                <span className={c.pass ? 'chip chip--indexed' : 'chip chip--failed'}>
                  {c.pass ? 'PASS' : 'FAIL'}
                </span>
              </td>
              <td>{detailsOf(c)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
