// How a webhook's URL is shown after the answer that created it: the path past its first segment, the query and any
// user info may be the credential (a Slack incoming-webhook URL is one), so they are masked.

/** `https://hooks.slack.com/services/T0/B0/secret?x=1` → `https://hooks.slack.com/services/…?…`. */
export function maskedWebhookUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '…';
  }
  const [first = '', ...rest] = parsed.pathname.split('/').filter((segment) => segment !== '');
  const path = first === '' ? '/' : `/${first}${rest.length > 0 ? '/…' : ''}`;
  return `${parsed.origin}${path}${parsed.search ? '?…' : ''}`;
}
