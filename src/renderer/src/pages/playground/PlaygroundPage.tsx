import { Placeholder } from '../../components/Placeholder';

export function PlaygroundPage() {
  return <Placeholder title="Playground" description="Invoke one interceptor by hand, dry-run a gateway's chain, or call tools through a gateway." />;
}
