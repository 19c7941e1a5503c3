import { Placeholder } from '../../components/Placeholder';

export function SinksPage() {
  return <Placeholder title="Sinks" description="The events sink interceptors recorded, linked to their executions." />;
}
