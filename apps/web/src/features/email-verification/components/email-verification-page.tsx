import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { BulkVerify } from './bulk-verify';
import { ReferenceCard } from './reference-card';
import { SingleVerify } from './single-verify';

/** /email-verification and /inbox-placement (part 2 §2.15): one address, or a list in bulk. */
export function EmailVerificationPage() {
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h2 className="text-2xl font-bold tracking-tight">Email Verification</h2>
        <p className="text-sm text-muted-foreground">Check whether an address can receive mail before you send to it: syntax, typos, disposable providers and the domain’s mail servers.</p>
      </div>
      <Card>
        <CardHeader>
          <CardTitle as="h3" className="text-lg">
            Verify addresses
          </CardTitle>
          <CardDescription>One address at a time, or a whole list in bulk.</CardDescription>
        </CardHeader>
        <CardContent>
          <Tabs defaultValue="single" className="space-y-4">
            <TabsList>
              <TabsTrigger value="single">Single address</TabsTrigger>
              <TabsTrigger value="bulk">Bulk</TabsTrigger>
            </TabsList>
            <TabsContent value="single">
              <SingleVerify />
            </TabsContent>
            <TabsContent value="bulk">
              <BulkVerify />
            </TabsContent>
          </Tabs>
        </CardContent>
      </Card>
      <ReferenceCard />
    </div>
  );
}
