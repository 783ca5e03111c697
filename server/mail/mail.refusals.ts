// Which SMTP failures are for good. Apart from the transport, so that the outbox can tell without
// loading nodemailer on a site whose mail is off.

/**
 * The mail server refused the recipient or this message for good (a 5xx answer to RCPT TO: no
 * such mailbox; or to the message itself, at DATA: refused as it is): another try would be refused
 * too. Any other refusal (sign-in needed, the sender refused, a server busy) is the mail server's
 * or the operator's to mend, and worth trying again.
 */
export function isPermanentRefusal(err: unknown): boolean {
  const { responseCode, command } = err as { responseCode?: unknown; command?: unknown };
  return typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600
    && (command === 'RCPT TO' || command === 'DATA');
}
