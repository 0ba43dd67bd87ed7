// What a save actually stored: the fields whose value the server did not keep as sent (dropped or changed), so the
// Studio never says "Item created" when a typed value was lost on the way.
type Data = Record<string, unknown>;

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Names of the fields sent with a value that the saved item does not hold as sent. */
export function unsavedFields(sent: Data, saved: Data | undefined): string[] {
  if (!saved) return [];
  return Object.keys(sent).filter((key) => sent[key] !== undefined && sent[key] !== null && !same(sent[key], saved[key]));
}

/** The toast after a save: "Item created", or a warning naming what was not saved as typed. */
export function savedToast(done: string, sent: Data, saved: Data | undefined): { tone: 'success' | 'danger'; title: string } {
  const lost = unsavedFields(sent, saved);
  if (lost.length === 0) return { tone: 'success', title: done };
  return {
    tone: 'danger',
    title: `${done}, but ${lost.join(', ')} ${lost.length === 1 ? 'was' : 'were'} not saved as typed: check ${lost.length === 1 ? 'it' : 'them'}`,
  };
}
