// The one way the renderer writes a time of day. The rule: 24-hour, the local time zone, whatever the locale
// (toLocaleTimeString gave "2:03:04 PM" on one screen beside "14:03:04.120" on the next). A time from
// today is written alone; an older one is prefixed with its date (YYYY-MM-DD), so a row from yesterday
// never reads as one from this afternoon.

// Today's local bounds, recomputed only when the day has changed: formatting a row is a comparison,
// not a `new Date()` and two date strings (it runs for every Traffic row scrolled into view).
const today = { start: 0, end: 0 };
function refreshToday(now: number): void {
  const d = new Date(now);
  today.start = new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  today.end = new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1).getTime();
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function format(at: string | number | Date, withMs: boolean): string {
  const d = at instanceof Date ? at : new Date(at);
  const ms = d.getTime();
  if (Number.isNaN(ms)) return String(at);
  const now = Date.now();
  if (now >= today.end || now < today.start) refreshToday(now);
  const seconds = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  const time = withMs ? `${seconds}.${String(d.getMilliseconds()).padStart(3, '0')}` : seconds;
  return ms >= today.start && ms < today.end ? time : `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${time}`;
}

/** `14:03:04.120`: recorded traffic, where the milliseconds tell neighbouring rows apart. */
export function clockTime(at: string | number | Date): string {
  return format(at, true);
}

/** `14:03:04`: when something happened in the console (a save, a reload, a health change). */
export function timeOfDay(at: string | number | Date): string {
  return format(at, false);
}
