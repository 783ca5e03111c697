// What Beatnik does with the activities other servers post to its inboxes (DESIGN.md, Inbox).
// Fedify has verified each one's signature against its actor's key before a listener runs
// (unsigned or badly signed: 401); anything without a listener is accepted and ignored (202).
import type { InboxListenerSetters } from '@fedify/fedify';
import type { AppContext } from '../context.ts';

export function listenToInbox(inbox: InboxListenerSetters<AppContext>): void {
  // The listeners are registered here, one per activity type Beatnik acts on.
  void inbox;
}
