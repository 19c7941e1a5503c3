// The page runs under a CSP without 'unsafe-eval'. zod compiles fast parsers with `new Function` when it may,
// and probes whether it may by trying once: the CSP refuses that and reports a violation each time. Telling
// zod not to try keeps the page free of violation reports (its plain parsers are used either way).
import { z } from 'zod';

z.config({ jitless: true });
