import type { MailTest, MailTestAnalysis } from '@sendwell/contracts';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { groupFindings, groupTitle } from '../lib/mail-test-display';
import { FindingItem } from './finding-item';
import { GroupDetails } from './group-details';
import { ScoreCard } from './score-card';

/** A finished test: the score, then each group's findings and what the analysis saw. */
export function TestResults({ test, analysis }: { test: MailTest; analysis: MailTestAnalysis }) {
  return (
    <div className="space-y-6" data-testid="mail-test-results">
      <ScoreCard test={test} analysis={analysis} />
      {groupFindings(analysis.findings).map(({ group, findings }) => (
        <Card key={group} data-testid={`mail-test-group-${group}`}>
          <CardHeader>
            <CardTitle as="h3" className="text-lg">
              {groupTitle[group]}
            </CardTitle>
          </CardHeader>
          <CardContent className="space-y-4">
            {findings.length ? (
              <ul className="space-y-2" aria-label={`${groupTitle[group]} findings`}>
                {findings.map((finding, i) => (
                  // A code can repeat (one per failing DKIM signature, say).
                  <FindingItem key={`${finding.code}:${i}`} finding={finding} />
                ))}
              </ul>
            ) : (
              <p className="text-sm text-muted-foreground">Nothing to fix here.</p>
            )}
            <GroupDetails group={group} analysis={analysis} />
          </CardContent>
        </Card>
      ))}
    </div>
  );
}
