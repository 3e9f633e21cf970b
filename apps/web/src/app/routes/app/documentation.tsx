import { DocumentationPage } from '@/features/docs/components/documentation-page';

export function Component() {
  return <DocumentationPage />;
}
