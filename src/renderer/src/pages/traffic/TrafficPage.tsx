import { Placeholder } from '../../components/Placeholder';

export function TrafficPage() {
  return <Placeholder title="Traffic" description="Every recorded execution, filterable, with the per-interceptor trace, diffs and replay." />;
}
