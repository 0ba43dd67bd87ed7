// Desktop notifications for approvers, through the browser's Notification API when the user allowed them.
export type AlertPermission = NotificationPermission | 'unsupported';

export interface ApprovalAlerts {
  permission(): AlertPermission;
  /** Asks once, from a click (browsers ignore requests made without a user gesture). */
  request(): Promise<AlertPermission>;
  /** `tag` is the approval id: every tab of the same person raises one notification, not one each. */
  show(alert: { tag: string; title: string; body: string; href: string }): void;
}

/** `navigate` opens the link in the Studio (the router); by default the browser loads it. */
export function browserNotifications({
  navigate = (href: string) => window.location.assign(href),
}: {
  navigate?: (href: string) => void;
} = {}): ApprovalAlerts {
  const supported = () => typeof Notification !== 'undefined';
  return {
    permission: () => (supported() ? Notification.permission : 'unsupported'),
    async request() {
      if (!supported()) return 'unsupported';
      return Notification.requestPermission();
    },
    show({ tag, title, body, href }) {
      if (!supported() || Notification.permission !== 'granted') return;
      try {
        const notification = new Notification(title, { tag, body, icon: '/favicon.svg' });
        notification.onclick = () => {
          window.focus();
          navigate(href);
          notification.close();
        };
      } catch {
        // Some browsers allow notifications only from a service worker; the toast still tells the approver.
      }
    },
  };
}
